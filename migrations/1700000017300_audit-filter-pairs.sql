-- Up Migration
-- The audit log's common two-filter questions ("what did this organisation's orders do", "what did this
-- administrator approve") walk one index in time order, and their capped count reads the index alone.
CREATE INDEX IF NOT EXISTS audit_log_organisation_event_type ON read.audit_log (organisation_id, event_type, occurred_at DESC, event_id DESC);
CREATE INDEX IF NOT EXISTS audit_log_organisation_record_type ON read.audit_log (organisation_id, record_type, occurred_at DESC, event_id DESC);
CREATE INDEX IF NOT EXISTS audit_log_actor_event_type ON read.audit_log (actor_id, event_type, occurred_at DESC, event_id DESC);

-- Down Migration
DROP INDEX IF EXISTS read.audit_log_actor_event_type;
DROP INDEX IF EXISTS read.audit_log_organisation_record_type;
DROP INDEX IF EXISTS read.audit_log_organisation_event_type;
