// ask_user for pi: the tool and its commands hand pi's terminal to the ask-user binary, which
// draws the form, logs every key and prints the result (see ../README.md and docs/pi.md).
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { findBinary } from "./binary.ts";
import { registerCommands } from "./commands.ts";
import { registerTool } from "./tool.ts";

export default function askUser(pi: ExtensionAPI): void {
	registerTool(pi);
	registerCommands(pi);
	pi.on("session_start", async (_event, ctx) => {
		const found = findBinary();
		if ("missing" in found && ctx.hasUI) ctx.ui.notify(found.missing, "warning");
	});
}
