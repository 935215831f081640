/**
 * The scenarios of `npm run bench`. `long` marks those left out of the default run (which must
 * finish within 5 minutes on the project's 2-core machine) with their wall time there; they run
 * by name or with `all`. `needs` names what the machine must have (bench/prerequisites.ts).
 */
import { benchApi } from './api';
import { benchApiExplain } from './api-explain';
import { benchAudit } from './audit';
import type { BenchRow } from './bench-row';
import { benchExplain } from './explain';
import { benchFleet } from './fleet';
import { benchFold } from './fold';
import { benchHostile } from './hostile';
import { benchHttp } from './http';
import { benchIngestor } from './ingestor';
import { benchJournalIndex } from './journal-index';
import { benchLog, benchLogKafka } from './log';
import { benchStore } from './log-store';
import { benchLongevity } from './longevity';
import { benchLongevityAsOf } from './longevity-asof';
import type { Need } from './prerequisites';
import { benchReplay } from './replay';
import { benchRequest } from './request';
import { benchSoak } from './soak';
import { benchSolve } from './solve';
import { API_FLOOD, benchStreamFlood, HOSTILE_FLOOD } from './stream-flood';
import { benchTools } from './tools';

export interface Options {
  readonly compareKafkaClients: boolean;
  readonly baseline: string | null;
}

export interface Scenario {
  readonly name: string;
  readonly run: (o: Options) => BenchRow[] | Promise<BenchRow[]>;
  /** Left out of the default run; how long it takes (on the 2-core machine). */
  readonly long?: string;
  readonly needs?: readonly Need[];
}

export const SCENARIOS: readonly Scenario[] = [
  { name: 'solve', run: (o) => benchSolve(3000, o.baseline) },
  { name: 'explain', run: (o) => benchExplain(1500, o.baseline) },
  { name: 'fold', run: () => benchFold() },
  { name: 'replay', run: () => benchReplay() },
  { name: 'log', run: () => benchLog() },
  {
    name: 'log-kafka',
    run: (o) => benchLogKafka(o.compareKafkaClients),
    needs: ['kafka'],
    long: 'about 30 s with its jar broker (KAFKA_BROKERS to use yours)',
  },
  { name: 'store', run: () => benchStore() },
  { name: 'http', run: (o) => benchHttp(o.baseline) },
  { name: 'api', run: () => benchApi() },
  { name: 'api-explain', run: () => benchApiExplain(), long: 'about 30 s' },
  { name: 'request', run: () => benchRequest(), long: 'about 1 min' },
  { name: 'ingestor', run: () => benchIngestor(), long: 'about 75 s' },
  { name: 'tools', run: () => benchTools(), long: 'about 75 s' },
  { name: 'hostile', run: () => benchHostile(), long: 'about 40 s' },
  {
    name: 'stream-flood',
    run: async () => [...(await benchStreamFlood(API_FLOOD)), ...(await benchStreamFlood(HOSTILE_FLOOD))],
    long: 'about 90 s',
  },
  {
    name: 'resume-scan',
    run: async () => (await import('./resume-scan')).benchResumeScan(),
    long: 'about 1 min: resumes of unknown streams against a full stream ledger',
  },
  { name: 'longevity', run: () => benchLongevity(), long: 'about 80 s' },
  {
    name: 'journal-index',
    run: (o) => benchJournalIndex(o.baseline),
    long: 'about 1 min (2 with a baseline): the requestId index of a journal grown to 1M entries',
  },
  { name: 'longevity-asof', run: () => benchLongevityAsOf(), long: 'about 65 s' },
  { name: 'soak', run: () => benchSoak(), long: 'about 15 min (SOAK_MINUTES, default 60 simulated minutes)' },
  {
    name: 'fleet',
    run: () => benchFleet(),
    needs: ['kafka', 'redis', 'haproxy'],
    long: 'about 2 min: a jar broker, redis-server, haproxy, two API replicas',
  },
  {
    name: 'audit',
    run: (o) => benchAudit(o.baseline),
    needs: ['kafka'],
    long: 'several minutes: a journal grown to 1M records on its jar broker (or KAFKA_BROKERS)',
  },
  {
    name: 'tlog',
    run: async () => [
      ...(await import('./tlog')).benchTlog(),
      ...(await (await import('./tlog-log')).benchTlogLog()),
    ],
    long: 'about 2 min: a 1M-leaf tree; checkpoint rounds and a 1M-leaf restart on the embedded log',
  },
  {
    name: 'receipts',
    run: async (o) => (await import('./receipts')).benchReceipts(o.baseline),
    long: 'about 2 min (3 with --baseline): GET /route with RECEIPTS=true against without, alternating cells',
  },
  {
    name: 'flood',
    run: async (o) => (await import('./flood')).benchFlood(o.baseline),
    long: 'about 2 min: npm start under a one-book flood, paced and in bursts (4 with --baseline)',
  },
  {
    name: 'import',
    run: async (o) => (await import('./import')).benchImport(o.baseline),
    long: "2-3 min (5 with --baseline): replay import of a generated 2 GB day in tardis.dev's CSV against gzip -dc",
  },
];
