// The matching module: pure functions, no I/O. See docs/matching.md.
export {
  AFFIX_PREFIXES,
  AFFIX_SUFFIXES,
  COMMON_WORDS,
} from './common-words.ts';
export { ISO_COUNTRY_CODES, isWatchDesignation, WATCH_DESIGNATION_CODES } from './countries.ts';
export {
  ARIPO_MEMBER_STATES,
  BENELUX_MEMBER_STATES,
  type CoverageRecord,
  type CoverageSearch,
  coverageSearch,
  coveredDesignations,
  covers,
  coversAny,
  EU_MEMBER_STATES,
  OAPI_MEMBER_STATES,
  REGIONAL_OFFICES,
} from './coverage.ts';
export {
  compareMarks,
  type Decision,
  decideConflict,
  decideConflictPrepared,
  type PreparedWatch,
  prepareWatch,
  type Reason,
  type ReasonKind,
  type RecordInput,
  type SearchKeys,
  searchKeys,
  type WatchInput,
} from './decide.ts';
export {
  foldConfusables,
  MATCH_KEYS_VERSION,
  type MatchKeys,
  matchKeys,
  normalizeMarkText,
  tokens,
} from './normalize.ts';
