// /ask:replay, /answer, /answer:again and /ask-settings. Command flows answer with a user
// message (as if the user had typed it); a cancelled form sends nothing.
import type { ExtensionAPI, ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { findBinary, firstLine, type Run, run } from "./binary.ts";
import { extractQuestions } from "./extract.ts";
import { appendPayload } from "./payloads.ts";
import { handOver, hasTerminal } from "./terminal.ts";

/** Where ask-user finds the stored forms: this pi session's branch, else its own store. */
function sourceArgs(ctx: ExtensionCommandContext): string[] {
	const args = ["--session", ctx.sessionManager.getSessionId()];
	const file = ctx.sessionManager.getSessionFile();
	const leaf = ctx.sessionManager.getLeafId();
	if (file) args.push("--pi-session", file, ...(leaf ? ["--leaf", leaf] : []));
	return args;
}

function ready(ctx: ExtensionCommandContext, what: string): string | undefined {
	if (!hasTerminal(ctx)) {
		ctx.ui.notify(`${what} needs pi's interactive terminal.`, "error");
		return undefined;
	}
	const found = findBinary();
	if ("missing" in found) {
		ctx.ui.notify(found.missing, "error");
		return undefined;
	}
	return found.bin;
}

async function openForm(pi: ExtensionAPI, ctx: ExtensionCommandContext, bin: string, args: string[], input?: string) {
	const shown = await handOver(ctx, () => run(bin, args, { input }));
	if (!shown.shown) {
		ctx.ui.notify("This pi mode cannot show a form.", "error");
		return;
	}
	report(pi, ctx, shown.value);
}

function report(pi: ExtensionAPI, ctx: ExtensionCommandContext, result: Run): void {
	if (result.code === 0) {
		const text = result.stdout.trimEnd();
		if (text) pi.sendUserMessage(text, ctx.isIdle() ? undefined : { deliverAs: "followUp" });
	} else if (result.code === 1) {
		ctx.ui.notify("Form cancelled; nothing was sent.", "info");
	} else {
		ctx.ui.notify(firstLine(result, `ask-user failed (exit ${result.code ?? result.signal})`), "error");
	}
}

export function registerCommands(pi: ExtensionAPI): void {
	pi.registerCommand("ask:replay", {
		description: "Reopen the newest ask_user form on this branch and send the answer",
		handler: async (_args, ctx) => {
			const bin = ready(ctx, "/ask:replay");
			if (bin) await openForm(pi, ctx, bin, ["replay", ...sourceArgs(ctx)]);
		},
	});
	pi.registerCommand("answer:again", {
		description: "Reopen the previous /answer form on this branch",
		handler: async (_args, ctx) => {
			const bin = ready(ctx, "/answer:again");
			if (bin) await openForm(pi, ctx, bin, ["answer", "--again", ...sourceArgs(ctx)]);
		},
	});
	pi.registerCommand("answer", {
		description: "Turn the questions in the latest assistant message into a form and send the answers",
		handler: async (_args, ctx) => {
			const bin = ready(ctx, "/answer");
			if (!bin) return;
			const extraction = await extractQuestions(ctx, bin, sourceArgs(ctx));
			if ("cancelled" in extraction) {
				ctx.ui.notify("Question extraction cancelled.", "info");
				return;
			}
			if ("failed" in extraction) {
				ctx.ui.notify(extraction.failed, "error");
				return;
			}
			appendPayload(pi, extraction.form, "answer-extraction", extraction.sourceEntryId);
			const session = ["--session", ctx.sessionManager.getSessionId()];
			await openForm(pi, ctx, bin, ["answer", "--form", "-", ...session], JSON.stringify(extraction.form));
		},
	});
	pi.registerCommand("ask-settings", {
		description: "Open ask-user's settings (saved to its config file at once)",
		handler: async (_args, ctx) => {
			const bin = ready(ctx, "/ask-settings");
			if (!bin) return;
			const shown = await handOver(ctx, () => run(bin, ["settings"]));
			if (shown.shown && shown.value.code !== 0) {
				ctx.ui.notify(firstLine(shown.value, "ask-user settings failed"), "error");
			}
		},
	});
}
