import type { QuoteJournal } from '@app/audit';
import { describe, expect, it } from 'vitest';
import { journalHealthy } from './checkpoint-timer';

/** What journalHealthy reads of a journal: its failure count and whether appends fail now. */
function journal(): { j: QuoteJournal; state: { failures: number; failing: boolean } } {
  const state = { failures: 0, failing: false };
  const j = {
    get stats() {
      return { recorded: 0, appended: 0, failures: state.failures, refused: 0 };
    },
    get failing() {
      return state.failing;
    },
  } as unknown as QuoteJournal;
  return { j, state };
}

describe('journalHealthy: when a checkpoint may promise the merge delay', () => {
  it('not while appends fail, nor in the round after one failed, then again', () => {
    const { j, state } = journal();
    const kept = journalHealthy(() => j);
    expect(kept()).toBe(true);
    state.failures = 1; // an append failed and was retried successfully between two rounds
    expect(kept()).toBe(false);
    expect(kept()).toBe(true);
    state.failing = true;
    state.failures = 2;
    expect(kept()).toBe(false);
    expect(kept()).toBe(false);
    state.failing = false;
    expect(kept()).toBe(true);
  });
});
