// Buyers' evidence files (issue 14): recognised by their bytes, stripped of identifying metadata, stored by content.
export {
  EVIDENCE_CONTENT_TYPES,
  EVIDENCE_LIMITS,
  EVIDENCE_QUOTAS,
  evidenceDownloadName,
  EvidenceUnsupportedError,
  type EvidenceContentType,
  type EvidenceType,
} from "./evidence-type.ts";
export { sniffEvidenceType } from "./sniff.ts";
export { stripImageMetadata } from "./strip-metadata.ts";
export {
  defaultEvidenceDirectory,
  EvidenceAddressInvalidError,
  EvidenceCorruptedError,
  filesystemEvidenceStore,
  type EvidenceStore,
  type StagedEvidence,
} from "./store.ts";
export { hammingDistance, hashBands, HASH_BANDS, perceptualHash, PERCEPTUAL_HASH_BITS } from "./perceptual-hash.ts";
