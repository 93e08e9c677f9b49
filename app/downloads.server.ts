// Files the app's pages hand out: a claim's evidence (to the claims team, a merchant, a buyer) and a statement's CSV.
// Never sniffed by the browser, never cached.
import { attachmentDisposition } from "../server/index.ts";
import { INLINE_EVIDENCE_TYPES } from "./ops/evidence.tsx";

type File = { bytes: Uint8Array; contentType: string; fileName: string };

/** An attachment with its stored content type and length. */
export function downloadResponse(file: File): Response {
  return fileResponse(file, file.contentType, attachmentDisposition(file.fileName), {});
}

/**
 * A claim's evidence file, its type as the core read it from the bytes (readOpsEvidence): shown in place (`inline`)
 * only when asked and the type is one of INLINE_EVIDENCE_TYPES, else an attachment. Always under a CSP that
 * sandboxes the response and loads nothing, so even a file a browser misread could run no script, submit no form and
 * reach no other page of ours.
 */
export function evidenceResponse(file: File, wanted: "inline" | "attachment"): Response {
  const inline = wanted === "inline" && INLINE_EVIDENCE_TYPES.includes(file.contentType);
  return fileResponse(file, file.contentType, inline ? "inline" : attachmentDisposition(file.fileName), {
    "Content-Security-Policy": "sandbox; default-src 'none'",
    "Cross-Origin-Resource-Policy": "same-origin",
  });
}

function fileResponse(file: File, contentType: string, disposition: string, extra: Record<string, string>): Response {
  // A copy typed as the ArrayBuffer view Response takes.
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": contentType,
      "Content-Length": String(file.bytes.byteLength),
      "Content-Disposition": disposition,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
      ...extra,
    },
  });
}
