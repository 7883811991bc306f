// Handing pi's terminal to ask-user and back. One form at a time: a second call (a parallel
// tool call, a command typed while a form is open) waits its turn instead of failing.
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";

let turn: Promise<unknown> = Promise.resolve();

function inTurn<T>(job: () => Promise<T>): Promise<T> {
	const next = turn.then(job, job);
	turn = next.catch(() => undefined);
	return next;
}

/** Whether pi shows its terminal UI (false in print, JSON and RPC mode). */
export function hasTerminal(ctx: ExtensionContext): boolean {
	const mode = (ctx as { mode?: string }).mode;
	return ctx.hasUI && (mode === undefined || mode === "tui");
}

/**
 * Stops pi's TUI, runs `job` (which spawns ask-user on /dev/tty), restarts the TUI with a full
 * redraw. `{ shown: false }` when pi has no terminal to hand over (`ctx.ui.custom` returns
 * without calling its factory, as in RPC mode).
 */
export function handOver<T>(ctx: ExtensionContext, job: () => Promise<T>): Promise<{ shown: true; value: T } | { shown: false }> {
	return inTurn(async () => {
		let shown = false;
		let failure: unknown;
		let value: T | undefined;
		const ui = ctx.ui as { setWorkingVisible?: (v: boolean) => void };
		ui.setWorkingVisible?.(false);
		try {
			await ctx.ui.custom<void>((tui, _theme, _keybindings, done) => {
				shown = true;
				tui.stop();
				job()
					.then((v) => {
						value = v;
					})
					.catch((error) => {
						failure = error;
					})
					.finally(() => {
						tui.start();
						tui.requestRender(true);
						done();
					});
				return { render: () => [], invalidate: () => {} };
			});
		} finally {
			ui.setWorkingVisible?.(true);
		}
		if (failure !== undefined) throw failure;
		return shown ? { shown: true, value: value as T } : { shown: false };
	});
}
