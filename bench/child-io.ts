/** Talking to the benches' child processes: IPC questions, stdout lines, the REST client process. */
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { join } from 'node:path';
import type { ClientFigures } from './api-client';
import { spawnHeld } from './processes';

/** Send `message` to a forked child and resolve with its answer (its next IPC message). */
export function ask<T = unknown>(child: ChildProcess, message: unknown): Promise<T> {
  const answer = nextMessage<T>(child);
  child.send(message as object);
  return answer;
}

/** The child's next IPC message; rejects if it exits first. */
export function nextMessage<T = unknown>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void =>
      reject(new Error(`child process ${child.pid} exited (${code ?? signal}) before answering`));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve(m as T);
    });
  });
}

/** The first whole line the child prints that `match`es. */
export function lineFrom(child: ChildProcess, match: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const onData = (c: Buffer): void => {
      buf += c.toString();
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines)
        if (match(line)) {
          child.stdout!.off('data', onData);
          return resolve(line);
        }
    };
    child.stdout!.on('data', onData);
    child.once('close', (code) => reject(new Error(`child exited ${code} before the expected line`)));
  });
}

/** GET `url` from autocannon in a process of its own (bench/api-client.ts): 4 connections, `seconds`. */
export async function clientProcess(url: string, seconds: number, connections = 4): Promise<ClientFigures> {
  const out = await outputOf('load client', process.execPath, [
    join(__dirname, 'api-client.js'),
    url,
    String(connections),
    String(seconds),
  ]);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '') as ClientFigures;
}

/** Run `command` (held: stopped on Ctrl-C) to its end; its stdout, or an error with its stderr. */
export function outputOf(
  label: string,
  command: string,
  args: readonly string[],
  options: Omit<SpawnOptions, 'stdio'> = {},
): Promise<string> {
  const child = spawnHeld(label, command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0) resolve(out);
      else
        reject(
          new Error(`${label} exited ${code ?? signal}: ${err.trim().split('\n').slice(-20).join('\n')}`),
        );
    });
  });
}
