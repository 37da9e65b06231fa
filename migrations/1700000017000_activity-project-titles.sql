-- Up Migration
-- The activity feed's own memory of project titles, as each project event left them: the feed quotes
-- them without reading read.projects, so a rebuild can build the feed beside the record models.
CREATE TABLE read.activity_project_titles (
  project_id uuid PRIMARY KEY,
  title text NOT NULL
);
INSERT INTO read.activity_project_titles (project_id, title) SELECT id, title FROM read.projects ON CONFLICT DO NOTHING;
SELECT public.grant_analyst_read('read');

-- Down Migration
DROP TABLE read.activity_project_titles;
