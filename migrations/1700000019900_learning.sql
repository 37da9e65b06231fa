-- Up Migration

-- Learning and certification. Courses show their current version; the enrolments carry each person's
-- progress, attempts and (in read.certifications) what they earned.

CREATE TABLE read.courses (
  id uuid PRIMARY KEY,
  title text NOT NULL,
  summary text NOT NULL,
  audience text[] NOT NULL,
  product_categories text[] NOT NULL,
  level text NOT NULL,
  estimated_minutes integer NOT NULL,
  certifying boolean NOT NULL,
  validity_days integer,
  pass_mark integer NOT NULL,
  attempts_allowed integer,
  shuffle_questions boolean NOT NULL,
  -- draft | published | archived
  status text NOT NULL,
  -- the published version (0 before the first publication)
  version integer NOT NULL,
  lesson_count integer NOT NULL,
  question_count integer NOT NULL,
  media_types text[] NOT NULL,
  -- the quiz with its right choices and explanations: never served to learners
  quiz jsonb NOT NULL,
  created_by uuid,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  published_at timestamptz
);
CREATE INDEX courses_status ON read.courses (status, title);

-- The current version's lessons, in order.
CREATE TABLE read.course_lessons (
  course_id uuid NOT NULL,
  id uuid NOT NULL,
  position integer NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  media jsonb,
  -- an uploaded file's stored name (kept from removal while a lesson names it)
  media_file text GENERATED ALWAYS AS (media ->> 'file') STORED,
  PRIMARY KEY (course_id, id)
);

-- Every published version of a course, as it was published (admins' /versions).
CREATE TABLE read.course_versions (
  course_id uuid NOT NULL,
  version integer NOT NULL,
  content jsonb NOT NULL,
  published_at timestamptz NOT NULL,
  published_by uuid,
  PRIMARY KEY (course_id, version)
);

-- One row per person and course.
CREATE TABLE read.enrolments (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  organisation_id uuid,
  course_id uuid NOT NULL,
  -- the course version the attempts count against
  course_version integer NOT NULL,
  completed_lessons uuid[] NOT NULL DEFAULT '{}',
  -- attempts on course_version since the last pass
  attempts_used integer NOT NULL DEFAULT 0,
  attempts_total integer NOT NULL DEFAULT 0,
  best_score integer,
  passed_at timestamptz,
  enrolled_at timestamptz NOT NULL,
  last_activity_at timestamptz NOT NULL,
  UNIQUE (user_id, course_id)
);
CREATE INDEX enrolments_course ON read.enrolments (course_id);
CREATE INDEX enrolments_organisation ON read.enrolments (organisation_id);

CREATE TABLE read.course_attempts (
  id uuid PRIMARY KEY,
  enrolment_id uuid NOT NULL,
  user_id uuid NOT NULL,
  course_id uuid NOT NULL,
  course_version integer NOT NULL,
  attempt_number integer NOT NULL,
  attempts_allowed integer,
  score integer NOT NULL,
  pass_mark integer NOT NULL,
  passed boolean NOT NULL,
  answers jsonb NOT NULL,
  results jsonb NOT NULL,
  certification_id uuid,
  submitted_at timestamptz NOT NULL
);
CREATE INDEX course_attempts_enrolment ON read.course_attempts (enrolment_id, submitted_at DESC);
CREATE INDEX course_attempts_course ON read.course_attempts (course_id);

-- Certifications: other modules count these (programme tiers), so the names are fixed.
CREATE TABLE read.certifications (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  organisation_id uuid NULL,
  course_id uuid NOT NULL,
  -- the course's title when it was earned or last renewed
  course_title text NOT NULL,
  course_version integer NOT NULL,
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  -- active | expired
  status text NOT NULL,
  verification_code text NOT NULL UNIQUE,
  renewals integer NOT NULL DEFAULT 0,
  enrolment_id uuid NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX certifications_user ON read.certifications (user_id);
CREATE INDEX certifications_organisation ON read.certifications (organisation_id, issued_at, expires_at);
CREATE INDEX certifications_expiry ON read.certifications (status, expires_at);

CREATE TABLE read.learning_assignments (
  id uuid PRIMARY KEY,
  organisation_id uuid NOT NULL,
  user_id uuid NOT NULL,
  course_id uuid NOT NULL,
  due_date date NOT NULL,
  note text,
  assigned_by uuid,
  assigned_at timestamptz NOT NULL,
  -- open | completed | cancelled
  status text NOT NULL,
  completed_at timestamptz
);
CREATE INDEX learning_assignments_organisation ON read.learning_assignments (organisation_id, status);
CREATE INDEX learning_assignments_user ON read.learning_assignments (user_id, course_id);

-- Down Migration
DROP TABLE read.learning_assignments;
DROP TABLE read.certifications;
DROP TABLE read.course_attempts;
DROP TABLE read.enrolments;
DROP TABLE read.course_versions;
DROP TABLE read.course_lessons;
DROP TABLE read.courses;
