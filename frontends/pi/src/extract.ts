// /answer's extraction on pi's current model. ask-user owns the prompt and the retry rules; it
// asks this host for each completion over a pipe (`answer --extractor host`, docs/pi.md): one
// JSON request line on its stdout, one reply line on its stdin.
import { complete } from "@mariozechner/pi-ai";
import { BorderedLoader, type ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { type ChildProcess } from "node:child_process";
import { firstLine, run } from "./binary.ts";

interface Request {
	protocol: string;
	attempt: number;
	instructions: string;
	prompt: string;
}

export type Extraction = { form: unknown; sourceEntryId?: string } | { cancelled: true } | { failed: string };

type Model = NonNullable<ExtensionCommandContext["model"]>;

type Context = Parameters<typeof complete>[1];
type Completion = (context: Context, signal: AbortSignal) => ReturnType<typeof complete>;

interface Registry {
	complete?: (m: Model, c: Context, o: { signal: AbortSignal }) => ReturnType<typeof complete>;
	getApiKeyAndHeaders?: (m: Model) => Promise<{ apiKey?: string; headers?: Record<string, string> }>;
	getApiKey?: (m: Model) => Promise<string | undefined>;
}

/** One completion on the current model. pi 1.6 completes through its registry (the only way to
 *  reach providers an extension registered); pi 0.73 through pi-ai with the resolved key. */
async function completion(ctx: ExtensionCommandContext, model: Model): Promise<Completion> {
	const registry = ctx.modelRegistry as unknown as Registry;
	if (registry.complete) {
		const viaRegistry = registry.complete.bind(registry);
		return (context, signal) => viaRegistry(model, context, { signal });
	}
	let credentials: { apiKey?: string; headers?: Record<string, string> } = {};
	if (registry.getApiKeyAndHeaders) {
		const found = await registry.getApiKeyAndHeaders(model);
		credentials = { apiKey: found.apiKey, headers: found.headers };
	} else if (registry.getApiKey) {
		credentials = { apiKey: await registry.getApiKey(model) };
	}
	return (context, signal) => complete(model, context, { ...credentials, signal });
}

function answerRequest(request: Request, child: ChildProcess, ask: Completion, signal: AbortSignal): void {
	const reply = (body: Record<string, unknown>) => {
		if (child.stdin?.writable) child.stdin.write(`${JSON.stringify({ attempt: request.attempt, ...body })}\n`);
	};
	ask(
		{
			systemPrompt: request.instructions,
			messages: [{ role: "user", content: [{ type: "text", text: request.prompt }], timestamp: Date.now() }],
		},
		signal,
	)
		.then((message) => {
			if (message.stopReason === "error" || message.stopReason === "aborted") {
				reply({ error: message.errorMessage ?? `the model stopped (${message.stopReason})` });
				return;
			}
			const text = message.content
				.filter((part): part is { type: "text"; text: string } => part.type === "text")
				.map((part) => part.text)
				.join("\n");
			reply({ output: text });
		})
		.catch((error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }));
}

/** Runs the extraction behind pi's loader (Esc cancels it). */
export async function extractQuestions(
	ctx: ExtensionCommandContext,
	bin: string,
	args: string[],
): Promise<Extraction> {
	const model = ctx.model;
	if (!model) return { failed: "/answer needs a model to extract the questions: pick one with /model." };
	const ask = await completion(ctx, model);
	const controller = new AbortController();
	const extraction = run(bin, ["answer", "--extract-only", "--extractor", "host", ...args], {
		signal: controller.signal,
		onLine: (line, child) => {
			let request: Request;
			try {
				request = JSON.parse(line) as Request;
			} catch {
				return;
			}
			if (request.protocol !== "ask-user-extract/1") return;
			if (request.attempt > 1) ctx.ui.notify(`Retrying question extraction (attempt ${request.attempt})…`, "info");
			answerRequest(request, child, ask, controller.signal);
		},
	}).then((result): Extraction => {
		if (controller.signal.aborted) return { cancelled: true };
		const last = result.stdout.trim().split("\n").pop() ?? "";
		if (result.code === 0) {
			const parsed = JSON.parse(last) as { form: unknown; sourceEntryId?: string | null };
			return { form: parsed.form, sourceEntryId: parsed.sourceEntryId ?? undefined };
		}
		return { failed: firstLine(result, `question extraction failed (exit ${result.code})`) };
	});
	const shown = await ctx.ui.custom<Extraction>((tui, theme, _keybindings, done) => {
		const loader = new BorderedLoader(tui, theme, `Extracting questions with ${model.provider}/${model.id}…`);
		loader.onAbort = () => controller.abort();
		extraction.then(done, (error: unknown) => done({ failed: String(error) }));
		return loader;
	});
	return shown ?? (await extraction);
}
