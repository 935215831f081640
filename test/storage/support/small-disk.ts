import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogFiles } from '@app/event-log';
import { FaultyFiles } from '../../../libs/event-log/test/faulty-files';

/** A small filesystem a test can fill and free. */
export interface SmallDisk {
  readonly kind: 'tmpfs' | 'fault-injecting file layer';
  readonly dir: string;
  /** Give to EmbeddedLog (`files`); undefined on a real tmpfs (node:fs is used). */
  readonly files: LogFiles | undefined;
  /** Use up every free byte. */
  fill(): void;
  /** Give the space back. */
  free(): void;
  dispose(): void;
}

/** Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN): checked once. */
let mountable: boolean | null = null;
export function canMount(): boolean {
  if (mountable !== null) return mountable;
  const probe = mkdtempSync(join(tmpdir(), 'mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    mountable = true;
  } catch {
    mountable = false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
  return mountable;
}

/** A tmpfs of `bytes` mounted on a fresh directory (root only). */
export function tmpfsDisk(bytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'small-disk-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
  const filler = join(dir, 'filler');
  return {
    kind: 'tmpfs',
    dir: join(dir, 'data'),
    files: undefined,
    fill: () => {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
        // A tail smaller than a chunk may still fit: take it too.
        try {
          for (;;) writeSync(fd, chunk, 0, 512);
        } catch {
          // full
        }
      } finally {
        closeSync(fd);
      }
    },
    free: () => unlinkSync(filler),
    dispose: () => {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The same on an ordinary directory, the full disk injected by the log's file layer. */
export function injectedDisk(bytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'injected-disk-'));
  const files = new FaultyFiles(bytes);
  return {
    kind: 'fault-injecting file layer',
    dir,
    files,
    fill: () => files.fill(),
    free: () => files.free(),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Both kinds where a tmpfs can be mounted, else the injected one alone: the suite never skips. */
export function smallDisks(bytes: number): { kind: SmallDisk['kind']; make: () => SmallDisk }[] {
  const injected = { kind: 'fault-injecting file layer' as const, make: () => injectedDisk(bytes) };
  return canMount() ? [{ kind: 'tmpfs' as const, make: () => tmpfsDisk(bytes) }, injected] : [injected];
}
