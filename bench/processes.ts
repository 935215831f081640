/**
 * Every process the bench starts, held in one place: main.ts stops what a scenario left after it
 * ends (success or failure), and everything on SIGINT / SIGTERM / SIGHUP or on exit. Children are
 * started detached (each leads its own process group) and stopped by group, so what they start in
 * turn (npm's shell and node, a server's workers) goes with them; processes that outlive their
 * starter (the jar broker, which scripts/kafka/kafka.mjs leaves running) are held by a Stoppable
 * of their own.
 */
import {
  fork,
  spawn,
  type ChildProcess,
  type ForkOptions,
  type SpawnOptions,
  type StdioOptions,
} from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Something the bench started that must not outlive it. */
export interface Stoppable {
  readonly label: string;
  /** Stop it (politely first); resolves once it is gone. */
  stop(): Promise<void>;
  /** The last resort, synchronous (from an `exit` handler): SIGKILL. */
  kill(): void;
}

/** How long a process gets between SIGTERM and SIGKILL. */
const GRACE_MS = 3_000;
const held = new Set<Stoppable>();
const ofChild = new WeakMap<ChildProcess, Stoppable>();
/** Set once the bench is stopping for good: what starts after that is killed at once. */
let closing = false;

/** Hold `s` until the returned function is called (which stops it and lets go). */
export function hold(s: Stoppable): () => Promise<void> {
  held.add(s);
  if (closing) s.kill();
  return async () => {
    if (!held.delete(s)) return;
    await s.stop();
  };
}

/** A new temporary directory, held like a child: removed by the returned function, or on Ctrl-C. */
export function heldTempDir(prefix: string): { readonly dir: string; readonly remove: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const rm = (): void => rmSync(dir, { recursive: true, force: true });
  const remove = hold({ label: `temp dir ${dir}`, stop: () => Promise.resolve(rm()), kill: rm });
  return { dir, remove };
}

/** What is held now, newest first. */
export function holding(): string[] {
  return [...held].reverse().map((s) => s.label);
}

/** Stop a child of spawnHeld / forkHeld (SIGTERM to its group, SIGKILL after a grace period). */
export async function stopHeld(child: ChildProcess): Promise<void> {
  const s = ofChild.get(child);
  if (s !== undefined && held.delete(s)) await s.stop();
}

/**
 * Wait up to `ms` while something is held: a child a scenario has just killed is still held
 * until its exit is seen. Returns at once when nothing is.
 */
export async function settle(ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (held.size > 0 && performance.now() < deadline) await pause(50);
}

/** Stop everything held, newest first, and kill whatever is started from now on. */
export async function closeAll(): Promise<string[]> {
  closing = true;
  return stopAll();
}

/** Stop everything held, newest first; returns what was still running. */
export async function stopAll(): Promise<string[]> {
  const all = [...held].reverse();
  held.clear();
  for (const s of all) await s.stop().catch(() => s.kill());
  return all.map((s) => s.label);
}

/** SIGKILL everything held, now (for `process.on('exit')` and a second Ctrl-C). */
export function killAll(): void {
  for (const s of held) s.kill();
  held.clear();
}

/** `spawn`, detached and held until it exits. */
export function spawnHeld(
  label: string,
  command: string,
  args: readonly string[],
  options: SpawnOptions & { stdio: StdioOptions },
): ChildProcess {
  return holdChild(label, spawn(command, args, { ...options, detached: true }));
}

/** `fork` (IPC), detached and held until it exits. */
export function forkHeld(
  label: string,
  modulePath: string,
  args: readonly string[],
  options: ForkOptions,
): ChildProcess {
  return holdChild(label, fork(modulePath, args, { ...options, detached: true }));
}

/** Hold a child (started with `detached: true`) until it exits; stopping signals its whole group. */
function holdChild<T extends ChildProcess>(label: string, child: T): T {
  const pid = child.pid;
  if (pid === undefined) return child; // it failed to start: its 'error' event says why
  const gone = new Promise<void>((r) => child.once('exit', () => r()));
  const s: Stoppable = {
    label: `${label} (pid ${pid})`,
    kill: () => signalGroup(pid, 'SIGKILL'),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) signalGroup(pid, 'SIGTERM');
      if (!(await within(gone, GRACE_MS))) signalGroup(pid, 'SIGKILL');
      await gone;
      // The leader is gone; whatever else of its group remains goes too.
      signalGroup(pid, 'SIGKILL');
    },
  };
  held.add(s);
  ofChild.set(child, s);
  if (closing) s.kill();
  void gone.then(() => {
    if (held.delete(s)) signalGroup(pid, 'SIGKILL');
  });
  return child;
}

/** A process this process did not start as a child (e.g. the jar broker), as a Stoppable. */
export function pidStoppable(
  label: string,
  pid: () => number | null,
  after = (): void => undefined,
): Stoppable {
  return {
    label,
    kill: () => {
      const p = pid();
      if (p !== null) signalGroup(p, 'SIGKILL');
      after();
    },
    stop: async () => {
      const p = pid();
      if (p !== null && alive(p)) {
        signalGroup(p, 'SIGTERM');
        const deadline = performance.now() + GRACE_MS * 3;
        while (alive(p) && performance.now() < deadline) await pause(100);
        if (alive(p)) signalGroup(p, 'SIGKILL');
        while (alive(p)) await pause(50);
      }
      after();
    },
  };
}

/** Whether `pid` runs (a zombie does not). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Signal the process group `pid` leads. Only groups: a group id is never handed to a new process
 * while the group has members, so this cannot hit a stranger that took over a dead child's pid.
 */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* the group is gone */
  }
}

function within(p: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    void p.then(() => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
