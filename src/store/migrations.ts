import type { Database } from 'better-sqlite3';

/**
 * Schema migrations, in order. The store's `user_version` is the number of migrations applied;
 * opening a store applies the missing ones in one transaction. Never edit a released migration:
 * append a new one.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    seed INTEGER NOT NULL,
    package_version TEXT NOT NULL,
    config TEXT NOT NULL
  );
  CREATE TABLE conversations (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    id TEXT NOT NULL,
    domain TEXT NOT NULL,
    setting TEXT NOT NULL,
    persuader TEXT NOT NULL,
    persuadee TEXT NOT NULL,
    claim_index INTEGER NOT NULL,
    status TEXT NOT NULL,
    nc REAL,
    record TEXT NOT NULL,
    PRIMARY KEY (run_id, id)
  );
  `,
  `
  ALTER TABLE runs ADD COLUMN status TEXT NOT NULL DEFAULT 'completed';
  ALTER TABLE runs ADD COLUMN updated_at TEXT;
  ALTER TABLE runs ADD COLUMN git_revision TEXT;
  ALTER TABLE runs ADD COLUMN planned_conversations INTEGER;
  ALTER TABLE runs ADD COLUMN claims_checksum TEXT;
  CREATE INDEX conversations_by_status ON conversations (run_id, status);
  CREATE TABLE turns (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    conversation_id TEXT NOT NULL,
    turn_index INTEGER NOT NULL,
    role TEXT NOT NULL,
    kind TEXT NOT NULL,
    score INTEGER NOT NULL,
    attempts INTEGER NOT NULL,
    call_hash TEXT,
    PRIMARY KEY (run_id, conversation_id, turn_index)
  );
  CREATE TABLE calls (
    hash TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    run_id INTEGER REFERENCES runs(id),
    request BLOB NOT NULL,
    reply_text TEXT NOT NULL,
    finish_reason TEXT NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cost_usd REAL,
    latency_ms REAL NOT NULL,
    retries INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX calls_by_run ON calls (run_id);
  CREATE TABLE call_failures (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL,
    model TEXT NOT NULL,
    run_id INTEGER REFERENCES runs(id),
    reason TEXT NOT NULL,
    status_code INTEGER,
    message TEXT NOT NULL,
    latency_ms REAL NOT NULL,
    retries INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  `
  CREATE TABLE consistency_samples (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    model TEXT NOT NULL,
    domain TEXT NOT NULL,
    claim_index INTEGER NOT NULL,
    claim TEXT NOT NULL,
    sample_index INTEGER NOT NULL,
    score INTEGER,
    attempts INTEGER NOT NULL,
    unusable INTEGER NOT NULL,
    raw TEXT NOT NULL,
    call_hash TEXT,
    PRIMARY KEY (run_id, model, domain, claim_index, sample_index)
  );
  CREATE TABLE annotations (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    conversation_id TEXT NOT NULL,
    turn_index INTEGER NOT NULL,
    annotator TEXT NOT NULL,
    score INTEGER NOT NULL,
    model_score INTEGER NOT NULL,
    imported_at TEXT NOT NULL,
    PRIMARY KEY (run_id, conversation_id, turn_index, annotator)
  );
  CREATE TABLE judge_trials (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    model TEXT NOT NULL,
    pair_id TEXT NOT NULL,
    claim TEXT NOT NULL,
    score_difference REAL NOT NULL,
    more_persuasive_first INTEGER NOT NULL,
    chosen INTEGER,
    correct INTEGER,
    attempts INTEGER NOT NULL,
    raw TEXT NOT NULL,
    call_hash TEXT,
    PRIMARY KEY (run_id, model, pair_id)
  );
  `,
  `
  CREATE TABLE calls_by_run_and_hash (
    hash TEXT NOT NULL,
    model TEXT NOT NULL,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    request BLOB NOT NULL,
    reply_text TEXT NOT NULL,
    finish_reason TEXT NOT NULL,
    input_tokens INTEGER,
    output_tokens INTEGER,
    cost_usd REAL,
    latency_ms REAL NOT NULL,
    retries INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (hash, run_id)
  );
  INSERT INTO calls_by_run_and_hash
    SELECT hash, model, coalesce(run_id, 0), request, reply_text, finish_reason, input_tokens, output_tokens, cost_usd, latency_ms, retries, created_at
    FROM calls ORDER BY rowid;
  DROP TABLE calls;
  ALTER TABLE calls_by_run_and_hash RENAME TO calls;
  CREATE INDEX calls_by_run ON calls (run_id);
  CREATE TABLE call_replays (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    hash TEXT NOT NULL,
    source_run_id INTEGER NOT NULL REFERENCES runs(id),
    PRIMARY KEY (run_id, hash)
  );
  CREATE TABLE run_leases (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id),
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    command TEXT NOT NULL,
    acquired_at TEXT NOT NULL,
    heartbeat_at TEXT NOT NULL
  );
  ALTER TABLE runs ADD COLUMN stop_reason TEXT;
  UPDATE runs SET status = 'interrupted' WHERE status = 'stopped';
  CREATE TABLE gguf_hashes (
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ms REAL NOT NULL,
    sha256 TEXT NOT NULL
  );
  `,
  // 5: what browsing needs (pmiyc show, pmiyc view): a conversation by id, filters on early stops and
  // failure reasons, the run's claims for text search, and indexes for the usual filters and sorts.
  `
  ALTER TABLE conversations ADD COLUMN early_stopped INTEGER;
  ALTER TABLE conversations ADD COLUMN failure_reason TEXT;
  UPDATE conversations SET early_stopped = json_extract(record, '$.earlyStopped'), failure_reason = json_extract(record, '$.failureReason');
  CREATE INDEX conversations_by_id ON conversations (id);
  CREATE INDEX conversations_by_persuader ON conversations (run_id, persuader, persuadee);
  CREATE INDEX conversations_by_persuadee ON conversations (run_id, persuadee);
  CREATE INDEX conversations_by_nc ON conversations (run_id, nc);
  CREATE TABLE run_claims (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    domain TEXT NOT NULL,
    claim_index INTEGER NOT NULL,
    claim TEXT NOT NULL,
    question TEXT,
    PRIMARY KEY (run_id, domain, claim_index)
  );
  INSERT OR IGNORE INTO run_claims (run_id, domain, claim_index, claim, question)
    SELECT run_id, domain, claim_index, json_extract(record, '$.claim'), json_extract(record, '$.question') FROM conversations;
  `,
  // 6: pages of a million-conversation run without reading its records: covering indexes, each
  // holding every column a filter or sort of pmiyc view uses, led by the columns it seeks or orders
  // by; and a run's cost without reading its calls.
  `
  DROP INDEX conversations_by_status;
  DROP INDEX conversations_by_persuader;
  DROP INDEX conversations_by_persuadee;
  DROP INDEX conversations_by_nc;
  CREATE INDEX conversations_by_pair ON conversations
    (run_id, persuader, persuadee, setting, domain, claim_index, id, status, early_stopped, failure_reason, nc);
  CREATE INDEX conversations_by_persuadee ON conversations
    (run_id, persuadee, persuader, setting, domain, claim_index, id, status, early_stopped, failure_reason, nc);
  CREATE INDEX conversations_by_claim ON conversations
    (run_id, domain, claim_index, setting, persuadee, persuader, id, status, early_stopped, failure_reason, nc);
  CREATE INDEX conversations_by_status ON conversations
    (run_id, status, failure_reason, early_stopped, nc, persuader, persuadee, setting, domain, claim_index, id);
  CREATE INDEX conversations_by_nc ON conversations
    (run_id, nc, id, status, early_stopped, failure_reason, persuader, persuadee, setting, domain, claim_index);
  CREATE INDEX calls_cost_by_run ON calls (run_id, cost_usd);
  `,
  // Compact storage: a request's messages each stored once (call_messages, a tree of messages), so
  // the store grows linearly with a conversation's turns; conversation records become deflated BLOBs
  // (record-codec.ts). Rows written before keep their old form and are read as they are.
  `
  CREATE TABLE call_messages (
    id INTEGER PRIMARY KEY,
    hash BLOB NOT NULL UNIQUE,
    parent INTEGER REFERENCES call_messages(id),
    role TEXT NOT NULL,
    content BLOB NOT NULL
  );
  ALTER TABLE calls ADD COLUMN messages INTEGER REFERENCES call_messages(id);
  `,
  // 8: calls_cost_by_run (run_id, cost_usd) serves every lookup of a run's calls, so calls_by_run
  // (run_id) only cost a B-tree write per stored call and ~40 bytes per call.
  `
  DROP INDEX calls_by_run;
  `,
  // 9: provider batches (docs/design/batches.md): each batch and the request hashes it carries, written
  // before it is submitted, so a killed run re-attaches to it on --resume instead of paying again.
  // A line's outcome is recorded when the batch's results are read: a failed line is settled (the
  // batch will never answer it), so a batch whose other lines are stored is closed and not read again.
  `
  CREATE TABLE batches (
    id INTEGER PRIMARY KEY,
    run_id INTEGER REFERENCES runs(id),
    model TEXT NOT NULL,
    provider TEXT NOT NULL,
    provider_batch_id TEXT,
    submission_key TEXT NOT NULL,
    status TEXT NOT NULL,
    provider_status TEXT,
    submitted_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX batches_open ON batches (model, status);
  CREATE TABLE batch_requests (
    batch_id INTEGER NOT NULL REFERENCES batches(id),
    hash BLOB NOT NULL,
    outcome TEXT,
    PRIMARY KEY (batch_id, hash)
  );
  `,
  // 10: analysis studies (pmiyc analyze, issue 29): each judge's labels of each turn, and each
  // persuader's stance asked again after its conversation (drift), keyed by the study's own run, so
  // the analysed run's records are never touched and two studies of one run never mix. Each label
  // is also a row of turn_label_tags (turnLabelTags), so that the viewer's filters seek, not scan.
  `
  CREATE TABLE turn_labels (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    conversation_id TEXT NOT NULL,
    turn_index INTEGER NOT NULL,
    judge TEXT NOT NULL,
    role TEXT NOT NULL,
    labels TEXT,
    problem TEXT,
    attempts INTEGER NOT NULL,
    raw TEXT NOT NULL,
    call_hash TEXT,
    PRIMARY KEY (run_id, conversation_id, turn_index, judge)
  );
  CREATE TABLE turn_label_tags (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    tag TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    turn_index INTEGER NOT NULL,
    judge TEXT NOT NULL,
    PRIMARY KEY (run_id, tag, conversation_id, turn_index, judge)
  ) WITHOUT ROWID;
  CREATE TABLE drift_probes (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    conversation_id TEXT NOT NULL,
    model TEXT NOT NULL,
    score INTEGER,
    attempts INTEGER NOT NULL,
    raw TEXT NOT NULL,
    call_hash TEXT,
    PRIMARY KEY (run_id, conversation_id)
  );
  `,
  // 11: prompt caching (issue 30): of a call's input tokens, those read from and written to the
  // provider's prompt cache, as it reported them; NULL where it did not say (every earlier call).
  `
  ALTER TABLE calls ADD COLUMN cached_input_tokens INTEGER;
  ALTER TABLE calls ADD COLUMN cache_write_tokens INTEGER;
  `,
  // 12: `pmiyc runs` shows each run's input tokens and how many a prompt cache served (issue 30): the
  // run's cost index carries both, so the listing reads the index alone, never the calls' rows.
  `
  DROP INDEX calls_cost_by_run;
  CREATE INDEX calls_cost_by_run ON calls (run_id, cost_usd, input_tokens, cached_input_tokens);
  `,
  // 13: people studies (issue 31): the participants of a run served by `pmiyc people serve`. A
  // participant is the agent person/<id> of the run's conversations; their link is kept only as the
  // SHA-256 of its token.
  `
  CREATE TABLE participants (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    id TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('persuadee', 'persuader')),
    token_hash TEXT NOT NULL UNIQUE,
    claim_index INTEGER NOT NULL,
    invite_order INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('invited', 'consented', 'conversing', 'finished', 'withdrawn')),
    conversation_id TEXT,
    invited_at TEXT NOT NULL,
    consented_at TEXT,
    finished_at TEXT,
    ended_because TEXT,
    follow_up_score INTEGER CHECK (follow_up_score BETWEEN 1 AND 5),
    follow_up_at TEXT,
    PRIMARY KEY (run_id, id)
  );
  `,
  // 14: research notes (issue 32): a researcher's note, tag and 1-5 grade on a conversation
  // (turn_index NULL) or one of its turns, written from `pmiyc view`. Their own table, keyed by the
  // noted run: the run's records are never touched. Notes are few, so each filter of the viewer
  // (tag, grade, any note) reads its own index range and names the conversations it holds.
  `
  CREATE TABLE notes (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    conversation_id TEXT NOT NULL,
    turn_index INTEGER,
    tag TEXT,
    grade INTEGER CHECK (grade BETWEEN 1 AND 5),
    note TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX notes_by_conversation ON notes (run_id, conversation_id, turn_index);
  CREATE INDEX notes_by_tag ON notes (run_id, tag, conversation_id);
  CREATE INDEX notes_by_grade ON notes (run_id, grade, conversation_id);
  `,
  // 15: full-text search of every message and claim (issue 32, docs/design/view.md "Search"). Messages live only
  // inside the deflated records, so their index is contentless (no copy of the text): a turn's row is
  // conversation rowid * 16384 + turn index, its message in the column of its role. It is written with the
  // conversation (search-index.ts); the conversations stored before are listed in search_backlog, which
  // `pmiyc upgrade` indexes. Claims are indexed from run_claims itself (external content), kept by triggers.
  `
  CREATE VIRTUAL TABLE message_search USING fts5(persuader, persuadee, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
  CREATE VIRTUAL TABLE claim_search USING fts5(claim, question, content='run_claims', tokenize='unicode61 remove_diacritics 2');
  INSERT INTO claim_search (claim_search) VALUES ('rebuild');
  CREATE TRIGGER run_claims_search_insert AFTER INSERT ON run_claims BEGIN
    INSERT INTO claim_search (rowid, claim, question) VALUES (new.rowid, new.claim, new.question);
  END;
  CREATE TRIGGER run_claims_search_delete AFTER DELETE ON run_claims BEGIN
    INSERT INTO claim_search (claim_search, rowid, claim, question) VALUES ('delete', old.rowid, old.claim, old.question);
  END;
  CREATE TABLE search_backlog (id INTEGER PRIMARY KEY CHECK (id = 1), next_rowid INTEGER NOT NULL, last_rowid INTEGER NOT NULL);
  INSERT INTO search_backlog SELECT 1, min(rowid), max(rowid) FROM conversations HAVING count(*) > 0;
  `,
  // 16: protocol outcome records (docs/design/protocols.md "Storage"): one table for every protocol
  // beside PMIYC's (APE, PersuSafety, SYCON-Bench), so a new protocol needs no migration of its own. One row per
  // finished item of a run (a conversation on one topic, say), keyed by the protocol's own item key; the record
  // is the protocol's JSON, which the protocol reads back through its own schema.
  `
  CREATE TABLE protocol_records (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    item_key TEXT NOT NULL,
    record TEXT NOT NULL,
    stored_at TEXT NOT NULL,
    PRIMARY KEY (run_id, item_key)
  );
  `,
];

/** The schema version this pmiyc writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Marks a SQLite file as a pmiyc store (`PRAGMA application_id`): "pmiy" in ASCII. */
export const PMIYC_APPLICATION_ID = 0x706d6979;

/**
 * Brings a store to the current schema. Runs inside an IMMEDIATE transaction that reads the
 * version again, so two processes creating or upgrading the same store at once apply each
 * migration exactly once. The caller has checked that the file is a pmiyc store and not newer.
 */
export function migrate(database: Database): void {
  database
    .transaction(() => {
      const current = database.pragma('user_version', { simple: true }) as number;
      if (current >= SCHEMA_VERSION) return;
      for (const sql of MIGRATIONS.slice(current)) database.exec(sql);
      database.pragma(`user_version = ${SCHEMA_VERSION}`);
      database.pragma(`application_id = ${PMIYC_APPLICATION_ID}`);
    })
    .immediate();
}
