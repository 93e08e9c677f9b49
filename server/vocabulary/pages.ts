// A listing's page: what every list route takes (limit, cursor) and answers (docs/api.md "Lists").
export interface PageQuery {
  limit: number;
  startingAfter?: string;
}

/** One page of a listing, newest first; `nextCursor` is the `startingAfter` of the next page. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor: string | null;
}
