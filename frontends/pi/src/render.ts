// Transcript rows come from ask-user (`transcript --json`), so the wording has one source; this
// file only picks pi theme colours for each kind of row.
import { Text } from "@mariozechner/pi-tui";
import { findBinary, runSync } from "./binary.ts";

interface Row {
	kind: "call" | "invalid" | "cancelled" | "answer" | "note" | "elaborate" | "empty";
	text: string;
}

interface Theme {
	fg(color: string, text: string): string;
	bold(text: string): string;
}

const cache = new Map<string, Row[]>();

function rows(kind: "call" | "result", value: unknown): Row[] | undefined {
	const input = JSON.stringify(value ?? {});
	const key = `${kind}\u0000${input}`;
	const hit = cache.get(key);
	if (hit) return hit;
	const found = findBinary();
	if (!("bin" in found)) return undefined;
	const out = runSync(found.bin, ["transcript", kind, "-", "--json"], input);
	if (!out) return undefined;
	const parsed = JSON.parse(out) as Row[];
	if (cache.size > 200) cache.clear();
	cache.set(key, parsed);
	return parsed;
}

function paint(theme: Theme, row: Row): string {
	switch (row.kind) {
		case "call":
			return theme.fg("toolTitle", theme.bold(row.text));
		case "answer":
			return theme.fg("success", row.text);
		case "note":
			return theme.fg("dim", row.text);
		case "cancelled":
			return theme.fg("warning", row.text);
		case "invalid":
			return theme.fg("error", row.text);
		default:
			return theme.fg("muted", row.text);
	}
}

export function renderCall(
	args: unknown,
	theme: Theme,
	context?: { argsComplete?: boolean; executionStarted?: boolean },
): Text {
	const title = theme.fg("toolTitle", theme.bold("ask_user"));
	// While the model is still streaming the arguments they are not a payload yet.
	if (context?.argsComplete === false && !context.executionStarted) return new Text(title, 0, 0);
	const found = rows("call", args);
	return new Text(found ? found.map((r) => paint(theme, r)).join("\n") : title, 0, 0);
}

export function renderResult(
	result: { content?: { type: string; text?: string }[]; details?: unknown },
	options: { isPartial?: boolean },
	theme: Theme,
): Text {
	if (options.isPartial) return new Text(theme.fg("muted", "Waiting for the user's answer…"), 0, 0);
	const found = result.details ? rows("result", { content: result.content ?? [], details: result.details }) : undefined;
	if (found) return new Text(found.map((r) => paint(theme, r)).join("\n"), 0, 0);
	const text = (result.content ?? []).map((c) => c.text ?? "").join("\n");
	return new Text(theme.fg("muted", text), 0, 0);
}
