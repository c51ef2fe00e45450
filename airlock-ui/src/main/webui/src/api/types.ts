// Shapes of what the services answer, as far as the UI reads them. Fields are optional where a service
// may omit them; the UI shows "—" rather than inventing a value.

export type Risk = 'READ_ONLY' | 'WRITE_LOCAL' | 'WRITE_REMOTE' | 'DESTRUCTIVE';
export const RISKS: Risk[] = ['READ_ONLY', 'WRITE_LOCAL', 'WRITE_REMOTE', 'DESTRUCTIVE'];

export type SourceType = 'openapi' | 'git' | 'marketplace' | 'directory';
export const SOURCE_TYPES: SourceType[] = ['openapi', 'git', 'marketplace', 'directory'];

export interface ToolSource {
  id: string;
  name: string;
  type: SourceType;
  url: string;
  branch?: string | null;
  path?: string | null;
  intervalSeconds?: number | null;
  suspendOnChange?: boolean;
  /** NEW (never scanned), SCANNING, OK or FAILED */
  status?: string | null;
  lastScanAt?: string | null;
  nextScanAt?: string | null;
  counts?: { found?: number; added?: number; changed?: number; skipped?: number } | null;
  lastError?: string | null;
  createdBy?: string | null;
}

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  [key: string]: unknown;
}

export interface ParameterBinding {
  name: string;
  in?: string;
  location?: string;
  wireName?: string;
  style?: string;
}

export interface HttpBinding {
  method?: string;
  serverUrl?: string;
  pathTemplate?: string;
  parameters?: ParameterBinding[];
  auth?: { scheme?: string; parameterName?: string | null; secretName?: string | null } | null;
  timeoutMs?: number;
}

export interface ToolManifest {
  id?: string;
  verb: string;
  name?: string;
  description?: string;
  source?: string;
  namespace?: string;
  domain?: string;
  tags?: string[];
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  risk?: Risk;
  binding?: HttpBinding | null;
  version?: number;
  contentHash?: string;
}

export interface VerificationCase {
  name: string;
  kind?: string | null;
  passed: boolean;
  detail?: string | null;
}

export interface VerificationReport {
  passed: boolean;
  durationMs?: number;
  cases: VerificationCase[];
}

export interface GapTag { normalizedVerb: string; actionVerb: string; timesSeen?: number; score?: number; confidence?: number }

/**
 * A candidate in the review queue: the librarian's CandidateViews.Summary (list) or .Details (one); the
 * detail has the manifest instead of the top-level verb/name/description.
 */
/**
 * A tool in service the candidate collides with (librarian CandidateViews.Collision): REFUSED cannot be
 * approved, REPLACES needs an explicit confirmation naming toolId, SAME_NAME is a warning.
 */
export interface Collision {
  kind: 'REFUSED' | 'REPLACES' | 'SAME_NAME';
  toolId: string;
  source: string;
  sourceId?: string | null;
  operationKey?: string | null;
  candidateId?: string | null;
  matchedOn: string[];
  message: string;
  /** From the tool in service to this candidate: [{path, before, after}]. */
  diff?: unknown;
  activeRisk?: Risk | null;
  activePolicy?: (UsagePolicy & { secretNames?: string[] }) | null;
}

export interface PendingTool {
  id: string;
  sourceId?: string;
  sourceName?: string;
  operationKey?: string;
  revision?: number;
  toolId?: string;
  verb?: string;
  name?: string;
  description?: string;
  /** PENDING, APPROVED (building), ACTIVE, BUILD_FAILED, REJECTED, SUPERSEDED */
  status?: string;
  risk?: Risk;
  derivedRisk?: Risk;
  riskOverride?: Risk | null;
  changed?: boolean;
  gaps?: Array<string | GapTag> | null;
  discoveredAt?: string;
  updatedAt?: string;
  manifest?: ToolManifest & { healthProbe?: { binding?: HttpBinding } | null };
  operation?: Record<string, unknown> | null;
  warnings?: string[] | null;
  diff?: unknown;
  approvedRevision?: number | null;
  policy?: (UsagePolicy & { secretNames?: string[] }) | null;
  decidedBy?: string | null;
  decidedAt?: string | null;
  rejectReason?: string | null;
  buildReport?: VerificationReport | null;
  buildFailure?: string | null;
  /** Tools in service this one would replace or clash with, most serious first (detail only). */
  collisions?: Collision[] | null;
  /** In the queue: the kind of the most serious collision of an undecided candidate, if any. */
  collision?: Collision['kind'] | null;
  /** Server URLs on link-local/cloud metadata, loopback, private or internal addresses (detail only). */
  serverWarnings?: ServerWarning[] | null;
  /** Hidden characters or instructions to a language model in the tool's texts (detail only). */
  textWarnings?: TextWarning[] | null;
}

/** HIDDEN_CHARACTERS or LLM_INSTRUCTIONS in one of the tool's texts; `field` points into the manifest. */
export interface TextWarning {
  code: 'HIDDEN_CHARACTERS' | 'LLM_INSTRUCTIONS';
  field: string;
  excerpt: string;
  message: string;
}

/**
 * METADATA_SERVER: the server is a link-local/cloud metadata address, refused in every mode (the tool cannot
 * run); PRIVATE_SERVER: loopback, private or internal, reachable only where private networks are allowed.
 * The message is also among the candidate's warnings.
 */
export interface ServerWarning {
  code: 'METADATA_SERVER' | 'PRIVATE_SERVER';
  url: string;
  message: string;
}

export interface RateLimit { perSecond?: number | null; perMinute?: number | null; burst?: number | null }
export interface Quota { perDay?: number | null; perMonth?: number | null }
export interface Budget { currency: string; costPerCall: number; softLimit?: number | null; hardLimit?: number | null }

export interface UsagePolicy {
  rateLimit?: RateLimit | null;
  quota?: Quota | null;
  budget?: Budget | null;
  allowedCallers?: string[] | null;
}

export interface SearchHit {
  toolId: string;
  verb: string;
  name?: string | null;
  description?: string | null;
  score: number;
  confidence: number;
  matchedOn?: string[] | null;
  risk?: Risk;
  version?: number;
}

export interface Notification {
  id: string;
  kind: string;
  severity: 'INFO' | 'WARNING' | 'CRITICAL';
  title: string;
  message?: string | null;
  subjectId?: string | null;
  createdAt: string;
  read?: boolean;
  readAt?: string | null;
}

export interface AuditEntry {
  id?: string;
  at?: string;
  actor?: string;
  action?: string;
  subjectType?: string;
  subjectId?: string;
  summary?: string;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
  beforeState?: unknown;
  afterState?: unknown;
}

export interface Plugin {
  id?: string;
  toolId?: string;
  verb?: string;
  name?: string;
  type?: string;
  status?: string;
  statusReason?: string | null;
  version?: number;
  lastProbeAt?: string | null;
  lastProbeOk?: boolean | null;
  consecutiveFailures?: number;
  errorRate?: number | null;
  latencyP50Ms?: number | null;
  policy?: UsagePolicy | null;
}

export interface HealthSample {
  at: string;
  ok: boolean;
  latencyMs?: number | null;
  error?: string | null;
}

export interface Build {
  id: string;
  toolId?: string;
  version?: number;
  state?: string;
  report?: VerificationReport | null;
  failureReason?: string | null;
  updatedAt?: string;
}
