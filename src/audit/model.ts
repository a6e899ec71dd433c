// The audit log's entries: who did what to what, when, from where and by which way in.

/** The ways an administrative action comes in. */
export type AuditVia = "web" | "api" | "cli";

/** Where an action came from: its way in and the client's address (null from the CLI); services that audit take it. */
export interface AuditOrigin {
  via: AuditVia;
  address?: string | null;
}

/** An action to record; `actor` is taken separately (the service's first argument). */
export interface AuditInput {
  /** Dotted, area first: `user.block`, `user.promote`, `mail.resend`, `job.retry`, `record.tombstone`… */
  action: string;
  targetType: string;
  targetId: string | number;
  details?: Record<string, unknown>;
  /** The client's address; null from the CLI. */
  address?: string | null;
  via: AuditVia;
}

export interface AuditEntry {
  id: number;
  at: number;
  actorId: number | null;
  actorLabel: string;
  action: string;
  targetType: string;
  targetId: string;
  details: Record<string, unknown>;
  address: string | null;
  via: string;
}

/** Filters of the log's search (each optional). */
export interface AuditQuery {
  action?: string;
  targetType?: string;
  targetId?: string;
  actorId?: number;
  page?: unknown;
  size?: unknown;
}
