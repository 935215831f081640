import { auditOriginLog, journalHashes } from '@app/audit';
import type { EventLog } from '@app/event-log';
import type { CliContext } from '../cli/context';
import { readKeys } from '../verify/read-inputs';

/**
 * `audit --verify-log`: each origin named in the keys, its tree against its checkpoints and its
 * leaves against the journal. Every fault is a line on stderr; returns how many there were.
 */
export async function verifyLogs(
  log: EventLog,
  keySources: readonly string[],
  ctx: CliContext,
): Promise<number> {
  const keys = await readKeys(keySources, ctx);
  const origins = [...new Set(keys.map((k) => k.origin))].sort();
  const journal = await journalHashes(log);
  let faults = 0;
  for (const origin of origins) {
    const verifiers = keys.filter((k) => k.origin === origin).map((k) => k.verifier);
    const a = await auditOriginLog(log, origin, verifiers, journal);
    for (const p of a.problems) ctx.err(`LOG ${origin}: ${p}`);
    faults += a.problems.length;
    ctx.err(
      `log ${origin}: ${a.leaves} leaves, ${a.checkpoints} checkpoints, ${a.checkedLeaves} leaves checked against the journal, ${a.problems.length} fault(s)`,
    );
  }
  return faults;
}
