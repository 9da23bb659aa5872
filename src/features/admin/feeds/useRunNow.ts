import { sessionEndedAfter } from '../../../lib/infra/sessionEnded';
import { useCallback, useEffect, useRef, useState } from 'react';
import { texts } from '../../../adminFeedTexts';
import { notify } from '../../../lib/infra/notify';
import { isDbError } from '../db';
import {
  fetchRun,
  FeedServiceError,
  FINAL_STATUSES,
  requestRun,
  startRun,
  type FeedRun,
  type FeedSource,
} from './feedApi';
import { announceFeedsChanged } from './feedEvents';

const t = texts.feeds;
const POLL_MS = 1000;

/** A run started here: its rows read so far (null until the first poll answers). */
export interface Progress {
  runId: string;
  rowsRead: number | null;
}

/**
 * "Run now" (REQ-FEED-5): queues a manual run (feed_run_request), asks the feed-sync function to
 * work on it with the admin's session, and polls the run until it is final, showing the rows
 * read. The function goes on by itself past its time budget; the poll follows the run, not the
 * call. `onFinished` reloads the list and reports.
 */
export function useRunNow(onFinished: () => void) {
  const [running, setRunning] = useState<ReadonlyMap<string, Progress>>(new Map());
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const set = useCallback((sourceId: string, progress: Progress | null) => {
    setRunning((m) => {
      const next = new Map(m);
      if (progress) next.set(sourceId, progress);
      else next.delete(sourceId);
      return next;
    });
  }, []);

  const poll = useCallback(
    async (source: FeedSource, runId: string, call: { failed: boolean }) => {
      let run: FeedRun | null = null;
      let misses = 0;
      while (live.current) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        try {
          run = await fetchRun(runId);
          misses = 0;
        } catch (error) {
          // A poll that failed once is tried again; three in a row end the wait (the run goes on).
          console.error('Reading a feed run failed', error);
          if (++misses >= 3) break;
          continue;
        }
        if (!run || FINAL_STATUSES.includes(run.status)) {
          announceFeedsChanged(); // a failed or recovered feed changes the notice's count
          break;
        }
        // The function refused the call (and said so): the run waits for the Cron tick.
        if (call.failed && run.status === 'queued') break;
        set(source.id, { runId, rowsRead: run.rows_read });
      }
      if (!live.current) return;
      set(source.id, null);
      if (run?.status === 'failed') notify.error(`${t.runFailed}: ${run.error ?? ''}`);
      else if (run && FINAL_STATUSES.includes(run.status)) notify.success(t.runDone(source.name));
      else if (!call.failed) notify.error(t.serviceFailed);
      onFinished();
    },
    [onFinished, set],
  );

  const runNow = useCallback(
    async (source: FeedSource) => {
      let runId: string;
      try {
        runId = await requestRun(source.id);
      } catch (error) {
        console.error('Requesting a feed run failed', error);
        if (await sessionEndedAfter(error)) return;
        // "This feed is already being read", "Upload a feed file first": the database's words.
        notify.error(
          isDbError(error) ? `${t.runRequestFailed}: ${error.message}` : t.runRequestFailed,
        );
        return;
      }
      set(source.id, { runId, rowsRead: null });
      onFinished();
      const call = { failed: false };
      startRun(runId).catch((error: unknown) => {
        call.failed = true;
        console.error('The feed-sync function failed', error);
        notify.error(
          error instanceof FeedServiceError && error.said
            ? `${t.runFailed}: ${error.said}`
            : t.serviceFailed,
        );
      });
      await poll(source, runId, call);
    },
    [onFinished, poll, set],
  );

  return { running, runNow };
}
