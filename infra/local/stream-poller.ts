import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

export type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;

/** What Lambda sends to an event source mapping's on-failure destination for records it gave up on: where they were, not what. */
export type DiscardedBatch = {
  condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded';
  approximateInvokeCount: number;
  DDBStreamBatchInfo: { shardId: string; startSequenceNumber: string; endSequenceNumber: string; batchSize: number; streamArn: string };
};

export type StreamPollerOptions = {
  endpoint: string;
  tableName: string;
  /** Which records reach the handler (the event source mapping's filter); the others are passed over. */
  filter: (record: DynamoDBRecord) => boolean;
  handler: StreamHandler;
  /**
   * Where the position in the stream is kept. With a file it survives a restart, so records written
   * while the service was down are delivered when it comes back; without, reading starts at the oldest
   * record the stream still holds (24 h).
   */
  checkpointFile?: string;
  batchSize?: number;
  /** Retries of a failing record before it is given up (`MaximumRetryAttempts`); -1, the default: until it succeeds. */
  retryAttempts?: number;
  /**
   * Records older than this are given up unhandled (`MaximumRecordAgeInSeconds`); -1, the default: never. DynamoDB
   * Local rounds creation times down to the minute, so a record may be given up up to a minute early.
   */
  maxRecordAgeSeconds?: number;
  /** The time records' age is measured at (epoch ms); `Date.now` by default. */
  clock?: () => number;
  /** A batch whose handler throws is retried in halves (`BisectBatchOnFunctionError`). */
  bisectBatchOnError?: boolean;
  /** Called for records given up (the on-failure destination); they are not read again. */
  onDiscard?: (batch: DiscardedBatch) => void;
  /** Pause between reads of the shards when the last read found nothing (`IDLE_POLL_INTERVAL_MS` by default). */
  pollIntervalMs?: number;
  /** Pause of a shard after a failed batch before its retry; the other shards are read meanwhile. */
  retryDelayMs?: number;
};

/**
 * Per shard: the last record handled, whether the shard is closed and fully read, and while a record fails: which,
 * how often it did, and the size its retries are cut down to.
 */
type ShardState = { sequenceNumber?: string; done?: boolean; failing?: { sequenceNumber: string; attempts: number; limit?: number } };
type Checkpoint = { streamArn: string; shards: Record<string, ShardState> };

/** The first record of a batch that failed (those before it are done), and whether the handler threw. */
type Failure = { index: number; thrown: boolean };

/**
 * Lambda's event source mapping reads each shard of a DynamoDB stream four times a second: so does the poller while the
 * stream is quiet (a read that finds records is followed by the next at once). Reading every 100 ms cost the local
 * stack's process about 30 ms of CPU a second with no request at all, CPU taken from the requests it serves.
 */
const IDLE_POLL_INTERVAL_MS = 250;

/** How often the shards are listed again while none of them ends. */
const SHARD_LIST_INTERVAL_MS = 1000;

const LOCAL = { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };

/**
 * Reads the table's stream in DynamoDB Local and calls the handler with the event Lambda would send, shard
 * by shard (a child after its parent), in order, with the event source mapping's error handling:
 * - a failed record (thrown, or the lowest reported in `batchItemFailures`) is retried with everything after it; the
 *   position moves past a record only once it has been handled;
 * - a batch whose handler throws is retried in halves (`bisectBatchOnError`);
 * - a record that failed `retryAttempts` retries, or is older than `maxRecordAgeSeconds`, is given up: `onDiscard`
 *   gets its batch's position and reading goes on after it.
 * It is no kinder than Lambda: every failed call counts as an attempt, halving included (Lambda does not count
 * the halving), so a record is given up here no later than in AWS.
 */
export async function startStreamPoller(options: StreamPollerOptions): Promise<{ stop: () => Promise<void> }> {
  const dynamo = new DynamoDBClient({ endpoint: options.endpoint, ...LOCAL });
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, ...LOCAL });
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }));
  dynamo.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`);
  const batchSize = options.batchSize ?? 100;
  const retryAttempts = options.retryAttempts ?? -1;
  const maxRecordAgeSeconds = options.maxRecordAgeSeconds ?? -1;
  const clock = options.clock ?? Date.now;

  const stored = options.checkpointFile && existsSync(options.checkpointFile)
    ? (JSON.parse(readFileSync(options.checkpointFile, 'utf8')) as Checkpoint)
    : undefined;
  const checkpoint: Checkpoint = stored?.streamArn === streamArn ? stored : { streamArn, shards: {} };
  const save = () => {
    if (!options.checkpointFile) return;
    writeFileSync(`${options.checkpointFile}.tmp`, JSON.stringify(checkpoint));
    renameSync(`${options.checkpointFile}.tmp`, options.checkpointFile);
  };
  const iterators = new Map<string, string>();
  /** When a shard whose batch failed may be read again. */
  const retryAt = new Map<string, number>();

  async function listShards(): Promise<Shard[]> {
    const shards: Shard[] = [];
    let start: string | undefined;
    do {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ExclusiveStartShardId: start }));
      shards.push(...(StreamDescription?.Shards ?? []));
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
    return shards;
  }

  async function iteratorFor(shardId: string): Promise<string | undefined> {
    const known = iterators.get(shardId);
    if (known) return known;
    const after = checkpoint.shards[shardId]?.sequenceNumber;
    const { ShardIterator } = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator;
  }

  const sequenceOf = (record: DynamoDBRecord) => record.dynamodb!.SequenceNumber!;

  function discard(shardId: string, records: DynamoDBRecord[], condition: DiscardedBatch['condition'], approximateInvokeCount: number) {
    const given = records.filter(options.filter);
    if (given.length === 0) return;
    options.onDiscard?.({
      condition,
      approximateInvokeCount,
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: sequenceOf(given[0]!),
        endSequenceNumber: sequenceOf(given.at(-1)!),
        batchSize: given.length,
        streamArn: streamArn!,
      },
    });
  }

  /** Reads one batch of a shard; true when it handed records on (so the next read need not wait). */
  async function readShard(shardId: string): Promise<boolean> {
    if ((retryAt.get(shardId) ?? 0) > Date.now()) return false;
    const iterator = await iteratorFor(shardId);
    const state = (checkpoint.shards[shardId] ??= {});
    if (!iterator) {
      state.done = true;
      save();
      return false;
    }
    let page;
    try {
      page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: state.failing?.limit ?? batchSize }));
    } catch (error) {
      const name = (error as { name?: string }).name;
      iterators.delete(shardId);
      // Records past retention are gone; read on from the oldest one left.
      if (name === 'TrimmedDataAccessException') delete state.sequenceNumber;
      if (name === 'ExpiredIteratorException' || name === 'TrimmedDataAccessException') return false;
      throw error;
    }
    const records = (page.Records ?? []).map((record) => toLambdaRecord(record, streamArn!));
    // Records past their maximum age come first (the stream is in order): given up without a call.
    const expired = maxRecordAgeSeconds < 0 ? 0 : countOlderThan(records, (clock() / 1000) - maxRecordAgeSeconds);
    discard(shardId, records.slice(0, expired), 'RecordAgeExceeded', 0);
    const failure = await deliver(records.slice(expired));
    if (failure) {
      const failedAt = expired + failure.index;
      if (failedAt > 0) state.sequenceNumber = sequenceOf(records[failedAt - 1]!);
      const head = sequenceOf(records[failedAt]!);
      const attempts = state.failing?.sequenceNumber === head ? state.failing.attempts + 1 : 1;
      if (retryAttempts < 0 || attempts <= retryAttempts) {
        const halved = failure.thrown && options.bisectBatchOnError ? Math.max(1, Math.ceil((records.length - failedAt) / 2)) : undefined;
        state.failing = { sequenceNumber: head, attempts, limit: halved ?? state.failing?.limit };
        // Read again from the failed record, once the pause is over.
        iterators.delete(shardId);
        retryAt.set(shardId, Date.now() + (options.retryDelayMs ?? 1000));
        save();
        return false;
      }
      discard(shardId, records.slice(failedAt), 'RetryAttemptsExhausted', attempts);
    }
    delete state.failing;
    if (records.length) state.sequenceNumber = sequenceOf(records.at(-1)!);
    if (failure) iterators.delete(shardId);
    else if (page.NextShardIterator) iterators.set(shardId, page.NextShardIterator);
    else {
      iterators.delete(shardId);
      state.done = true;
    }
    if (records.length || state.done) save();
    return records.length > 0;
  }

  /** Hands the matching records to the handler; the first failure among `records`, if any. */
  async function deliver(records: DynamoDBRecord[]): Promise<Failure | undefined> {
    const selected = records.filter(options.filter);
    if (selected.length === 0) return undefined;
    try {
      const result = await options.handler({ Records: selected });
      const reported = (result?.batchItemFailures ?? []).map(({ itemIdentifier }) => records.findIndex((r) => sequenceOf(r) === itemIdentifier));
      if (reported.length === 0) return undefined;
      // Lambda retries from the lowest reported record; one it cannot find fails the whole batch.
      return { index: reported.includes(-1) ? 0 : Math.min(...reported), thrown: false };
    } catch (error) {
      console.error('stream poller: handler failed; the batch will be retried', error);
      return { index: 0, thrown: true };
    }
  }

  /**
   * The shards, listed again once a second and as soon as one is read to its end (a child may follow it): listing
   * them on every poll cost as much CPU as reading them.
   */
  let listed: { shards: Shard[]; at: number } | undefined;
  async function currentShards(): Promise<Shard[]> {
    if (!listed || Date.now() - listed.at >= SHARD_LIST_INTERVAL_MS) listed = { shards: await listShards(), at: Date.now() };
    return listed.shards;
  }

  async function cycle(): Promise<boolean> {
    const shards = await currentShards();
    const ids = new Set(shards.map((s) => s.ShardId!));
    let busy = false;
    for (const shard of shards) {
      const id = shard.ShardId!;
      if (checkpoint.shards[id]?.done) continue;
      // A child shard is read only after its parent, so that records stay in order.
      const parent = shard.ParentShardId;
      if (parent && ids.has(parent) && !checkpoint.shards[parent]?.done) continue;
      busy = (await readShard(id)) || busy;
      if (checkpoint.shards[id]?.done) listed = undefined;
    }
    return busy;
  }

  let running = true;
  const loop = (async () => {
    while (running) {
      const busy = await cycle().catch((error) => {
        console.error('stream poller: read failed', error);
        return false;
      });
      if (!busy) await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? IDLE_POLL_INTERVAL_MS));
    }
  })();

  return {
    stop: async () => {
      running = false;
      await loop;
      streams.destroy();
    },
  };
}

/** How many records at the start of `records` were written before `limit` (epoch seconds). */
function countOlderThan(records: DynamoDBRecord[], limit: number): number {
  const fresh = records.findIndex((record) => (record.dynamodb?.ApproximateCreationDateTime ?? Infinity) >= limit);
  return fresh < 0 ? records.length : fresh;
}

/** The record as Lambda delivers it (creation time in epoch seconds, the stream's ARN as source). */
function toLambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const { ApproximateCreationDateTime, ...change } = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: record.eventSource,
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: {
      ...(change as DynamoDBRecord['dynamodb']),
      ...(ApproximateCreationDateTime ? { ApproximateCreationDateTime: Math.floor(ApproximateCreationDateTime.getTime() / 1000) } : {}),
    },
  };
}
