// Finding and running the ask-user binary. Everything the user sees is decided by ask-user;
// this package only moves bytes between pi and it.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export interface Run {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/** `$ASK_USER_BIN`, else `ask-user` on `PATH`; a one-line reason when neither exists. */
export function findBinary(): { bin: string } | { missing: string } {
	const named = process.env.ASK_USER_BIN;
	if (named) {
		return isExecutable(named)
			? { bin: named }
			: { missing: `ASK_USER_BIN is set to ${named}, which is not an executable file.` };
	}
	for (const dir of (process.env.PATH ?? "").split(delimiter)) {
		const candidate = join(dir || ".", "ask-user");
		if (dir && isExecutable(candidate)) return { bin: candidate };
	}
	return {
		missing:
			"ask-user is not installed: put it on PATH (cargo install --path frontends/cli) or set ASK_USER_BIN to its path.",
	};
}

function isExecutable(path: string): boolean {
	try {
		accessSync(path, constants.X_OK);
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

export interface RunOptions {
	input?: string;
	signal?: AbortSignal;
	/** Called with each complete stdout line as it arrives (the /answer host seam). */
	onLine?: (line: string, child: ChildProcess) => void;
}

/** Runs ask-user with pipes for stdin/stdout/stderr; its form, if any, opens on /dev/tty. */
export function run(bin: string, args: string[], options: RunOptions = {}): Promise<Run> {
	return new Promise((resolve, reject) => {
		const child = spawn(bin, args, { stdio: ["pipe", "pipe", "pipe"] });
		let stdout = "";
		let stderr = "";
		let pending = "";
		child.stdout.setEncoding("utf8");
		child.stderr.setEncoding("utf8");
		child.stdout.on("data", (chunk: string) => {
			stdout += chunk;
			if (!options.onLine) return;
			pending += chunk;
			let newline = pending.indexOf("\n");
			while (newline >= 0) {
				options.onLine(pending.slice(0, newline), child);
				pending = pending.slice(newline + 1);
				newline = pending.indexOf("\n");
			}
		});
		child.stderr.on("data", (chunk: string) => {
			stderr += chunk;
		});
		// ask-user restores the terminal on SIGTERM and keeps the flow resumable.
		const stop = () => child.kill("SIGTERM");
		options.signal?.addEventListener("abort", stop, { once: true });
		if (options.signal?.aborted) stop();
		child.on("error", reject);
		child.on("close", (code, signal) => {
			options.signal?.removeEventListener("abort", stop);
			resolve({ code, signal, stdout, stderr });
		});
		child.stdin.on("error", () => {}); // ask-user may exit before reading everything
		if (options.input !== undefined) child.stdin.write(options.input);
		if (!options.onLine) child.stdin.end();
	});
}

/** Synchronous, for pi's synchronous renderers; `undefined` when ask-user cannot answer. */
export function runSync(bin: string, args: string[], input: string): string | undefined {
	try {
		return execFileSync(bin, args, { input, encoding: "utf8", stdio: ["pipe", "pipe", "ignore"], timeout: 2000 });
	} catch (error) {
		const out = (error as { stdout?: unknown }).stdout;
		return typeof out === "string" && out ? out : undefined;
	}
}

/** The first line ask-user wrote on stderr, for a notice. */
export function firstLine(run: Run, fallback: string): string {
	const line = run.stderr.split("\n").find((l) => l.trim());
	return line ? line.replace(/^ask-user: /, "") : fallback;
}
