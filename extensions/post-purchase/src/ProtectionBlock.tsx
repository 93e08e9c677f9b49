/** @jsxImportSource preact */
// The block both targets render: the order's protection as the app knows it, with links into the portal. Takes plain
// values (each target reads its own page's API), so it never touches the `shopify` global.
import type {} from "@shopify/ui-extensions/preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import {
  numericOrderId,
  optedIn,
  portalLink,
  requestStatus,
  statusUrl,
  type MetafieldEntry,
  type ProtectionStatus,
} from "./status.ts";

export interface BlockProps {
  attributes: { key: string; value: string }[] | undefined;
  metafields: MetafieldEntry[];
  /** The order's gid (Order or OrderIdentity); undefined until the page knows it. */
  orderGid: string | undefined;
  sessionToken: { get(): Promise<string> };
  formatDate(date: Date): string;
  /** The page's `i18n.translate`: the texts of locales/*.json in the buyer's language, `count` choosing a plural. */
  translate(key: string, options?: Record<string, string | number>): string;
}

/** A host signal's value; the component renders again when it changes (the `subscribe` every host signal has). */
export function useSignalValue<T>(signal: { readonly value: T; subscribe(fn: (value: T) => void): () => void }): T {
  const value = signal.value;
  // The value at the first render with this signal, after which the subscription below is made.
  const subscribedAfter = useMemo(() => signal.value, [signal]);
  const [, rerender] = useState(0);
  useEffect(() => {
    const unsubscribe = signal.subscribe(() => rerender((count) => count + 1));
    // A change between that render and the subscription is not missed.
    if (signal.value !== subscribedAfter) rerender((count) => count + 1);
    return unsubscribe;
  }, [signal, subscribedAfter]);
  return value;
}

export function ProtectionBlock({ attributes, metafields, orderGid, sessionToken, formatDate, translate }: BlockProps) {
  // Only an order that carries the opt-in is asked about: the others' pages make no request at all.
  const wanted = optedIn(attributes);
  const url = useMemo(() => statusUrl(metafields), [metafields]);
  const orderId = numericOrderId(orderGid);
  // The answer and when it came: the free look's end is compared with that time, not read again at each render.
  const [shown, setShown] = useState<{ status: ProtectionStatus; answeredAt: number } | null>(null);

  useEffect(() => {
    if (!wanted || !url || !orderId) return;
    const controller = new AbortController();
    requestStatus(url, orderId, sessionToken, controller.signal).then((next) => {
      if (!controller.signal.aborted) setShown(next && { status: next, answeredAt: Date.now() });
    });
    return () => controller.abort();
  }, [wanted, url, orderId, sessionToken]);

  if (!wanted || !shown) return null;
  const { status, answeredAt } = shown;
  if (status.status === "pending")
    return (
      <s-stack gap="small-200">
        <s-heading>{translate("heading")}</s-heading>
        <s-text>{translate("pending")}</s-text>
        <s-link href={portalLink(status.portalUrl)}>{translate("reportProblem")}</s-link>
      </s-stack>
    );
  const link = portalLink(status.portalUrl, status.referenceNumber);
  const freeLookEnds = new Date(status.freeLookEndsAt);
  // The free look (cancel for a refund of the fee) is open until its end.
  const cancellable = status.status === "active" && answeredAt < freeLookEnds.getTime();
  // Whole hours left of the free look, a part of an hour counting as one.
  const hoursLeft = Math.ceil((freeLookEnds.getTime() - answeredAt) / 3_600_000);
  return (
    <s-stack gap="small-200">
      <s-heading>{translate("heading")}</s-heading>
      <s-text>{translate("reference", { reference: status.referenceNumber })}</s-text>
      {status.status !== "active" && (
        <s-text color="subdued">{translate(status.status === "cancelled" ? "cancelled" : "ended")}</s-text>
      )}
      <s-link href={link}>{translate(status.status === "active" ? "reportProblem" : "viewInPortal")}</s-link>
      {cancellable && (
        <s-link href={link}>{translate("cancel", { date: formatDate(freeLookEnds), count: hoursLeft })}</s-link>
      )}
    </s-stack>
  );
}
