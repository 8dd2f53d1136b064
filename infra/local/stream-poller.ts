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
  pollIntervalMs?: number;
};

/** Per shard: the last record handled, and whether the shard is closed and fully read. */
type Checkpoint = { streamArn: string; shards: Record<string, { sequenceNumber?: string; done?: boolean }> };

const RETRY_AFTER_FAILURE_MS = 1000;
const LOCAL = { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };

/**
 * Reads the table's stream in DynamoDB Local and calls the handler with the event Lambda would send, shard
 * by shard (a child after its parent), in order. A failed record (thrown, or reported in
 * `batchItemFailures`) is retried with everything after it; the position moves past a record only once
 * it has been handled, as with Lambda's event source mapping.
 */
export async function startStreamPoller(options: StreamPollerOptions): Promise<{ stop: () => Promise<void> }> {
  const dynamo = new DynamoDBClient({ endpoint: options.endpoint, ...LOCAL });
  const streams = new DynamoDBStreamsClient({ endpoint: options.endpoint, ...LOCAL });
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: options.tableName }));
  dynamo.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`Table ${options.tableName} has no stream`);

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

  /** Reads one batch of a shard; true when it handed records on (so the next read need not wait). */
  async function readShard(shardId: string): Promise<boolean> {
    const iterator = await iteratorFor(shardId);
    const state = (checkpoint.shards[shardId] ??= {});
    if (!iterator) {
      state.done = true;
      save();
      return false;
    }
    let page;
    try {
      page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: options.batchSize ?? 100 }));
    } catch (error) {
      const name = (error as { name?: string }).name;
      iterators.delete(shardId);
      // Records past retention are gone; read on from the oldest one left.
      if (name === 'TrimmedDataAccessException') delete state.sequenceNumber;
      if (name === 'ExpiredIteratorException' || name === 'TrimmedDataAccessException') return false;
      throw error;
    }
    const records = (page.Records ?? []).map((record) => toLambdaRecord(record, streamArn!));
    const handled = await deliver(records);
    if (handled < records.length) {
      // Start again after the last handled record (or where this read started).
      iterators.delete(shardId);
      if (handled > 0) state.sequenceNumber = records[handled - 1]!.dynamodb!.SequenceNumber;
      save();
      await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_FAILURE_MS));
      return false;
    }
    if (records.length) state.sequenceNumber = records.at(-1)!.dynamodb!.SequenceNumber;
    if (page.NextShardIterator) iterators.set(shardId, page.NextShardIterator);
    else {
      iterators.delete(shardId);
      state.done = true;
    }
    if (records.length || state.done) save();
    return records.length > 0;
  }

  /** Hands the matching records to the handler; returns how many of `records` are done (all, or up to the first failure). */
  async function deliver(records: DynamoDBRecord[]): Promise<number> {
    const selected = records.filter(options.filter);
    if (selected.length === 0) return records.length;
    try {
      const result = await options.handler({ Records: selected });
      const failedAt = result?.batchItemFailures?.[0]?.itemIdentifier;
      if (!failedAt) return records.length;
      const index = records.findIndex((r) => r.dynamodb?.SequenceNumber === failedAt);
      return index < 0 ? 0 : index;
    } catch (error) {
      console.error('stream poller: handler failed; the batch will be retried', error);
      return 0;
    }
  }

  async function cycle(): Promise<boolean> {
    const shards = await listShards();
    const ids = new Set(shards.map((s) => s.ShardId!));
    let busy = false;
    for (const shard of shards) {
      const id = shard.ShardId!;
      if (checkpoint.shards[id]?.done) continue;
      // A child shard is read only after its parent, so that records stay in order.
      const parent = shard.ParentShardId;
      if (parent && ids.has(parent) && !checkpoint.shards[parent]?.done) continue;
      busy = (await readShard(id)) || busy;
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
      if (!busy) await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 100));
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
