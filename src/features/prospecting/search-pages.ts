// Reading search results page by page until enough rows pass the client-side filters. Each request carries
// only the spec's fields (the filters never leave the add-on); pages of 50 go from the offset the last run
// stopped at, and a run stops at its page cap or when the rate budget has no slot before the deadline, so
// the sidebar shows progress and "Load more" goes on from `loaded`.
import { isForLater, type OutreachClient, type SearchRequest, type SearchRow } from '../../api';
import { failedFilters, type FilterName, type SearchFilters } from './filters';

/** Pages read per sidebar call at most: the sidebar shows progress between calls. */
export const PAGES_PER_CALL = 10;

export interface PageRun {
  kept: SearchRow[];
  alreadyPresent: number;
  leftOut: number;
  leftOutBy: Partial<Record<FilterName, number>>;
  /** Rows read in this run (kept, present or left out). */
  read: number;
  /** The offset of the first row not read. */
  loaded: number;
  total: number;
  pages: number;
  /** The results ended (nothing more to read). */
  ended: boolean;
  /** Why the run stopped before its limit: its page cap, or the rate budget (the next call goes on). */
  paused?: 'pages' | 'rate';
}

interface PageOptions {
  limit: number;
  maxPages: number;
  filters: SearchFilters;
  present: Set<string>;
}

/** Reads pages from request.from until `limit` rows are kept, the results end or the run pauses. */
export function readPages(client: OutreachClient, request: SearchRequest, options: PageOptions): PageRun {
  const run: PageRun = {
    kept: [],
    alreadyPresent: 0,
    leftOut: 0,
    leftOutBy: {},
    read: 0,
    loaded: request.from ?? 0,
    total: 0,
    pages: 0,
    ended: false,
  };
  while (run.kept.length < options.limit) {
    if (run.pages >= options.maxPages) {
      run.paused = 'pages';
      break;
    }
    let list: SearchRow[];
    try {
      const response = client.search({ ...request, from: run.loaded });
      run.total = response.total;
      list = response.list;
    } catch (error) {
      if (run.pages === 0 || !isForLater(error)) throw error;
      run.paused = 'rate';
      break;
    }
    run.pages++;
    let i = 0;
    for (; i < list.length && run.kept.length < options.limit; i++) take(list[i], options, run);
    run.read += i;
    run.loaded += i;
    if (list.length === 0 || run.loaded >= run.total) {
      run.ended = i === list.length;
      break;
    }
  }
  return run;
}

function take(row: SearchRow, options: PageOptions, run: PageRun): void {
  if (options.present.has(row.id)) {
    run.alreadyPresent++;
    return;
  }
  const failed = failedFilters(row, options.filters);
  if (failed.length) {
    run.leftOut++;
    for (const name of failed) run.leftOutBy[name] = (run.leftOutBy[name] ?? 0) + 1;
    return;
  }
  options.present.add(row.id);
  run.kept.push(row);
}
