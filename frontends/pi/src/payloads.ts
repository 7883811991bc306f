// The `ask:payload` session entry, in the reference extension's exact shape, so that
// /ask:replay works on sessions either extension wrote.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export type PayloadSource = "tool" | "answer-extraction";

export function appendPayload(pi: ExtensionAPI, params: unknown, source: PayloadSource, sourceEntryId?: string): void {
	pi.appendEntry("ask:payload", { version: 1, timestamp: Date.now(), params, source, sourceEntryId });
}
