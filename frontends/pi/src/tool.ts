// The ask_user tool, in the contract's order: validate → store the payload → no terminal gives
// "Needs user input" → hand the terminal to ask-user → return its result.
import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { findBinary, firstLine, type Run, run, runSync } from "./binary.ts";
import { appendPayload } from "./payloads.ts";
import { renderCall, renderResult } from "./render.ts";
import { handOver, hasTerminal } from "./terminal.ts";

const DESCRIPTION =
	"Ask the user one or more structured questions in an interactive terminal form and wait for the answers. " +
	"Use it when the next step depends on a preference or a missing requirement that only the user can settle. " +
	"Each question has options (single, multi or preview); the user can always type their own answer and add notes. " +
	"The result gives every answer by question id, or says the user cancelled or wants to elaborate.";

const GUIDELINES = [
	"Call ask_user at real decision gates; do not ask what you can find out from the code or docs.",
	"Offer the options you are actually considering, each with a short description; the user can always type their own answer.",
	"Bundle two or three related questions into one call; ask one at a time only when an answer decides the next question.",
	"If the result's mode is elaborate, answer the user's notes before asking again.",
];

/** The lenient parameter schema from ask-user itself, so pi never rejects a malformed call
 *  before the tool can explain every issue; a bare object when ask-user is missing. */
function parameters(): Record<string, unknown> {
	const found = findBinary();
	if ("bin" in found) {
		const text = runSync(found.bin, ["schema", "input", "--lenient"], "");
		if (text) {
			const schema = JSON.parse(text) as Record<string, unknown>;
			delete schema.$schema;
			return schema;
		}
	}
	return { type: "object", properties: {}, additionalProperties: true };
}

interface ToolResult {
	content: { type: "text"; text: string }[];
	details: unknown;
}

function parseResult(result: Run): ToolResult {
	try {
		const parsed = JSON.parse(result.stdout) as ToolResult;
		if (Array.isArray(parsed.content)) return parsed;
	} catch {
		// explained below
	}
	throw new Error(firstLine(result, `ask-user ended without a result (exit ${result.code ?? result.signal})`));
}

export function registerTool(pi: ExtensionAPI): void {
	pi.registerTool({
		name: "ask_user",
		label: "Ask User",
		description: DESCRIPTION,
		promptSnippet: "Ask the user structured questions (options, free text, notes) when a decision is theirs to make",
		promptGuidelines: GUIDELINES,
		parameters: parameters() as never,
		execute: (toolCallId, params, signal, _onUpdate, ctx) => execute(pi, toolCallId, params, signal, ctx),
		renderCall,
		renderResult,
	} as never);
}

async function execute(
	pi: ExtensionAPI,
	toolCallId: string,
	params: unknown,
	signal: AbortSignal | undefined,
	ctx: ExtensionContext,
): Promise<ToolResult> {
	const found = findBinary();
	if ("missing" in found) throw new Error(found.missing);
	const bin = found.bin;
	const payload = JSON.stringify(params ?? {});
	const checked = await run(bin, ["validate", "-"], { input: payload });
	if (checked.code === 2) return parseResult(checked);
	if (checked.code !== 0) throw new Error(firstLine(checked, "ask-user could not validate the payload"));
	appendPayload(pi, params, "tool", toolCallId);
	const sessionId = ctx.sessionManager.getSessionId();
	const noTerminal = () => run(bin, ["ask", "-", "--no-ui", "--session", sessionId], { input: payload });
	if (!hasTerminal(ctx)) return parseResult(await noTerminal());
	// The id makes the call exactly-once: asked again after a crash, it resumes the same form.
	const args = ["ask", "-", "--id", `${sessionId}:${toolCallId}`, "--session", sessionId];
	const shown = await handOver(ctx, () => run(bin, args, { input: payload, signal }));
	if (!shown.shown) return parseResult(await noTerminal());
	if (signal?.aborted) {
		throw new Error("ask_user was interrupted before the user answered; the form is kept and `ask-user resume` reopens it.");
	}
	return parseResult(shown.value);
}
