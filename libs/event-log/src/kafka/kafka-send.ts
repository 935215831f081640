import type { Message, Producer, RecordMetadata, Transaction } from 'kafkajs';
import { retry } from '@app/retry';

/**
 * Sends, the first included, before giving up on partitions a send left out (each means a
 * leadership move); between them a pause under 100 ms doubling to 1 s, so the rounds span the
 * election instead of being spent back to back on metadata that has not caught up.
 */
const ROUNDS = { attempts: 10, initialMs: 100, maxMs: 1_000 };

/** A send answered for only some partitions: the rest are sent again. */
class Unacknowledged extends Error {}

/** A message bound for one named partition (the adapter partitions every message itself). */
export type PartitionedMessage = Message & { readonly partition: number };

/**
 * `producer.send` (or a transaction's) to `topic` with acks from every in-sync replica, that
 * resolves only once every partition of `messages` is acknowledged.
 *
 * kafkajs 2.2.4 (src/producer/sendMessages.js) keeps the answers of one send per broker across its
 * retries, and a retry only sends to brokers without an answer. When a partition's leader is lost
 * mid-send (a broker killed, a leadership moved) and the partition's new leader is a broker that
 * already answered for other partitions, the retry sends that partition's messages nowhere and the
 * send resolves without them: acknowledged, never written (the fleet test lost an acknowledged
 * entry so when a broker was killed). The answer lists each partition written, so the partitions
 * it leaves out are sent again, by the same producer: their sequence numbers were handed back when
 * the request failed, so if that request did reach the old leader and was replicated, the new
 * leader recognises the batch as a duplicate and answers with its offset instead of writing it twice.
 */
export async function sendAcknowledged(
  producer: Pick<Producer | Transaction, 'send'>,
  topic: string,
  messages: readonly PartitionedMessage[],
): Promise<RecordMetadata[]> {
  const out: RecordMetadata[] = [];
  let pending = messages;
  await retry(
    async (attempt) => {
      const meta = await producer.send({ topic, acks: -1, messages: [...pending] });
      out.push(...meta);
      const answered = new Set(meta.map((m) => m.partition));
      pending = pending.filter((m) => !answered.has(m.partition));
      if (pending.length > 0)
        throw new Unacknowledged(
          `${topic}: partitions ${[...new Set(pending.map((m) => m.partition))].join(', ')} were not acknowledged after ${attempt + 1} sends`,
        );
    },
    // A failed send is kafkajs's to retry (it has): only what a send left out is sent again here.
    { ...ROUNDS, retryIf: (e) => e instanceof Unacknowledged },
  );
  return out;
}
