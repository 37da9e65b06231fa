-- Up Migration
-- The learning module's certifications count on the scorecard: people holding a valid certification at any
-- time in the quarter.
ALTER TABLE read.scorecards ADD COLUMN certified_people integer NOT NULL DEFAULT 0;

-- Down Migration
ALTER TABLE read.scorecards DROP COLUMN certified_people;
