// An offline, scripted model for the end-to-end tests of this package against real pi (after
// ../shared/pi-lab/scripted-provider.ts). Switches, all by environment:
//   default            turn 1: text + an ask_user call (payload from PILAB_PAYLOAD, a file);
//                      after a tool result: text quoting it
//   PILAB_TWO=1        a second ask_user call in the same assistant message
//   PILAB_QUESTIONS=1  turn 1: a plain text message that asks two questions (for /answer)
//   PILAB_ECHO=1       every turn: echo the last message as text (command flows)
//   PILAB_EXTRACT      a file: the JSON an extraction request gets; PILAB_EXTRACT_BAD_FIRST=1
//                      makes the first extraction reply prose, to exercise ask-user's retry
//   PILAB_ABORT_MS     abort the agent this long after an ask_user call starts
//   PILAB_SHUTDOWN_AFTER=N  shut pi down at the N-th end of an agent run
//   PILAB_QUIET=1      no working indicator: pi writes nothing on its own while a tool runs
//                      (the reference benchmark times a key by the first bytes it brings)
// Every user message "ping" gets the answer "pong".
import { readFileSync } from "node:fs";
import { createAssistantMessageEventStream } from "@mariozechner/pi-ai";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

const env = process.env;
const PAYLOAD = env.PILAB_PAYLOAD
	? JSON.parse(readFileSync(env.PILAB_PAYLOAD, "utf8"))
	: {
			title: "Project setup",
			questions: [
				{
					id: "db",
					label: "Database",
					prompt: "Which database should we use?",
					options: [
						{ value: "postgres", label: "PostgreSQL" },
						{ value: "sqlite", label: "SQLite" },
					],
				},
			],
		};
const SECOND = {
	questions: [
		{
			id: "ci",
			label: "CI",
			prompt: "Which CI?",
			options: [
				{ value: "gh", label: "GitHub Actions" },
				{ value: "gl", label: "GitLab CI" },
			],
		},
	],
};
const ZERO = {
	input: 0,
	output: 0,
	cacheRead: 0,
	cacheWrite: 0,
	totalTokens: 0,
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
let extractions = 0;
let ends = 0;

function textOf(message: any): string {
	if (!message) return "";
	if (typeof message.content === "string") return message.content;
	return message.content.map((c: any) => c.text ?? "").join("");
}

/** pi 0.73 hands a provider `systemPrompt`; pi 1.6 a leading system message instead. */
function systemPrompt(context: any): string {
	if (context.systemPrompt) return context.systemPrompt;
	return textOf(context.messages.find((m: any) => m.role === "system"));
}

function reply(context: any): { content: any[]; stopReason: string } {
	const last = context.messages[context.messages.length - 1];
	if (systemPrompt(context).startsWith("Turn the questions")) {
		extractions += 1;
		if (env.PILAB_EXTRACT_BAD_FIRST && extractions === 1) {
			return { content: [{ type: "text", text: "Sure! Here are the questions you asked for." }], stopReason: "stop" };
		}
		return { content: [{ type: "text", text: readFileSync(env.PILAB_EXTRACT ?? "", "utf8") }], stopReason: "stop" };
	}
	if (last?.role === "user" && textOf(last).trim() === "ping") {
		return { content: [{ type: "text", text: "pong" }], stopReason: "stop" };
	}
	if (env.PILAB_ECHO) {
		return { content: [{ type: "text", text: `echo: ${textOf(last)}` }], stopReason: "stop" };
	}
	if (env.PILAB_QUESTIONS) {
		const text = "Before I start: which database do you want, PostgreSQL or SQLite? And should I add a CI workflow?";
		return { content: [{ type: "text", text }], stopReason: "stop" };
	}
	if (last?.role === "toolResult") {
		return { content: [{ type: "text", text: `Thanks. Tool said:\n${textOf(last)}` }], stopReason: "stop" };
	}
	const n = context.messages.length;
	const calls = [{ type: "toolCall", id: `call_ask_${n}`, name: "ask_user", arguments: PAYLOAD }];
	if (env.PILAB_TWO) calls.push({ type: "toolCall", id: `call_ask_b${n}`, name: "ask_user", arguments: SECOND });
	return { content: [{ type: "text", text: "I need one decision first." }, ...calls], stopReason: "toolUse" };
}

export default function (pi: ExtensionAPI) {
	pi.registerProvider("scripted", {
		baseUrl: "http://127.0.0.1:9",
		apiKey: "unused",
		api: "scripted-api",
		models: [
			{
				id: "scripted-1",
				name: "Scripted",
				reasoning: false,
				input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 100000,
				maxTokens: 4096,
			},
		],
		streamSimple: (model: any, context: any) => {
			const stream = createAssistantMessageEventStream();
			const { content, stopReason } = reply(context);
			const msg: any = {
				role: "assistant",
				content,
				api: model.api,
				provider: model.provider,
				model: model.id,
				usage: ZERO,
				stopReason,
				timestamp: Date.now(),
			};
			queueMicrotask(() => {
				stream.push({ type: "start", partial: { ...msg, content: [] } } as any);
				stream.push({ type: "done", reason: stopReason, message: msg } as any);
				stream.end(msg);
			});
			return stream;
		},
	} as any);
	if (env.PILAB_ABORT_MS) {
		pi.on("tool_call", async (event: any, ctx) => {
			if (event.toolName === "ask_user") setTimeout(() => ctx.abort(), Number(env.PILAB_ABORT_MS));
		});
	}
	if (env.PILAB_QUIET) {
		pi.on("session_start", async (_event, ctx) => {
			ctx.ui.setWorkingVisible(false);
		});
	}
	if (env.PILAB_SHUTDOWN_AFTER) {
		pi.on("agent_end", async (_event, ctx) => {
			ends += 1;
			if (ends >= Number(env.PILAB_SHUTDOWN_AFTER)) ctx.shutdown();
		});
	}
}
