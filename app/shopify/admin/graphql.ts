// The Admin GraphQL client the operations run over: `adminGraphqlOf(admin)` adapts the client
// `@shopify/shopify-app-remix` hands out (authenticate.admin / unauthenticated.admin). A call throws AdminApiError on
// GraphQL errors or mutation userErrors, so a job that makes it is retried. Each operation is one file beside this
// one, named after the operation (the fake Admin API in test/support/shopify.ts answers by that name).

export type AdminGraphql = <Result>(query: string, variables?: object) => Promise<Result>;

export class AdminApiError extends Error {
  readonly name = "AdminApiError";
}

/** Adapts the library's `admin.graphql(query, { variables })` (a fetch-style Response) to data-or-throw. */
export function adminGraphqlOf(admin: {
  graphql(query: string, options?: { variables?: Record<string, unknown> }): Promise<Response>;
}): AdminGraphql {
  return async <Result>(query: string, variables?: object) => {
    const response = await admin.graphql(query, variables ? { variables: { ...variables } } : undefined);
    const body = (await response.json()) as { data?: Result; errors?: unknown };
    if (body.errors) throw new AdminApiError(`Admin API errors: ${JSON.stringify(body.errors)}`);
    // Every mutation payload carries userErrors; a query's fields simply have none.
    for (const payload of Object.values(body.data ?? {}) as ({ userErrors?: unknown[] } | null)[]) {
      if (payload?.userErrors?.length)
        throw new AdminApiError(`Admin API userErrors: ${JSON.stringify(payload.userErrors)}`);
    }
    return body.data as Result;
  };
}

/** What every mutation payload selects; a non-empty list makes the call throw. */
export interface UserError {
  field: string[] | null;
  message: string;
  code?: string | null;
}

/** One named operation: a call typed by its variables and result, and the document it sends. */
export interface AdminOperation<Variables extends object | void, Result> {
  (graphql: AdminGraphql, variables: Variables): Promise<Result>;
  /** Kept on the call so test/app/shopify-schema.test.ts validates every operation against Shopify's schema. */
  readonly document: string;
}

export function adminOperation<Variables extends object | void, Result>(
  document: string,
): AdminOperation<Variables, Result> {
  const call = (graphql: AdminGraphql, variables: Variables) => graphql<Result>(document, variables ?? undefined);
  return Object.assign(call, { document });
}

/** `gid://shopify/Product/123` → `123`. */
export const numericId = (gid: string) => gid.slice(gid.lastIndexOf("/") + 1);
