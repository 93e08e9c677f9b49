// A file the app's pages hand out (a claim's evidence to the claims team, a statement's CSV to a merchant): an
// attachment with its stored content type and length, never sniffed, never cached.
import { attachmentDisposition } from "../server/index.ts";

export function downloadResponse(file: { bytes: Uint8Array; contentType: string; fileName: string }): Response {
  // A copy typed as the ArrayBuffer view Response takes.
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.bytes.byteLength),
      "Content-Disposition": attachmentDisposition(file.fileName),
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    },
  });
}
