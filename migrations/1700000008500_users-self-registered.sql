-- Up Migration
-- Whether the account registered itself (a partner applicant) rather than being added by an admin or
-- the seed, so workers can find self-registrations by time (the admins' registration digest).
-- Existing rows are filled from the Postgres event log (with EventStoreDB, `npm run projections:rebuild` fills them).
ALTER TABLE read.users ADD COLUMN self_registered boolean NOT NULL DEFAULT false;
UPDATE read.users u SET self_registered = true
FROM events e
WHERE e.type = 'UserRegistered.v1' AND (e.data->>'selfRegistered')::boolean AND (e.data->>'userId')::uuid = u.id;
CREATE INDEX users_self_registered_created ON read.users (created_at) WHERE self_registered;

-- Down Migration
DROP INDEX read.users_self_registered_created;
ALTER TABLE read.users DROP COLUMN self_registered;
