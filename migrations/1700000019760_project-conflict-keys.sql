-- Up Migration
-- Deal registrations are compared by customer name without legal forms, by the end user's
-- organisation e-mail domain (public mail providers do not count) and by site address; names that
-- are only similar (pg_trgm) are flagged to administrators as possible conflicts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

ALTER TABLE read.projects ADD COLUMN IF NOT EXISTS customer_words text NOT NULL DEFAULT '';
ALTER TABLE read.projects ADD COLUMN IF NOT EXISTS site_key text;

-- The keys of registrations projected before these rules, computed as domain/projects/registration.ts
-- does for plain (unaccented) names; a projections rebuild computes them all with the code itself.
UPDATE read.projects SET
  customer_words = trim(regexp_replace(
    trim(regexp_replace(lower(replace(replace(coalesce(end_user_customer_name, ''), '.', ''), '&', ' and ')), '[^[:alnum:]]+', ' ', 'g')),
    '(\s+(inc|incorporated|corp|corporation|co|company|ltd|limited|llc|llp|lp|plc|pllc|gmbh|mbh|ag|kg|ohg|ug|ev|sa|sas|sarl|sl|slu|srl|spa|sau|bv|nv|vof|pty|pte|pvt|oy|oyj|ab|as|asa|aps|kk|sro|zoo|sp|kft|zrt|doo|ltda|cv|and))+$', '')),
  site_key = CASE
    WHEN regexp_replace(lower(coalesce(end_user_location, '')), '[^[:alnum:]]+', '', 'g') ~ '[0-9]'
     AND regexp_replace(lower(coalesce(end_user_location, '')), '[^[:alnum:]]+', '', 'g') ~ '[a-z]'
     AND length(regexp_replace(lower(coalesce(end_user_location, '')), '[^[:alnum:]]+', '', 'g')) >= 6
    THEN regexp_replace(lower(end_user_location), '[^[:alnum:]]+', '', 'g') END;
UPDATE read.projects SET customer_key = replace(customer_words, ' ', '');
UPDATE read.projects SET email_domain = NULL WHERE email_domain IN (
  'gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'hotmail.co.uk', 'live.com', 'msn.com', 'yahoo.com', 'yahoo.co.uk',
  'yahoo.fr', 'yahoo.de', 'ymail.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com', 'proton.me', 'protonmail.com', 'gmx.com',
  'gmx.de', 'gmx.net', 'web.de', 't-online.de', 'mail.com', 'zoho.com', 'yandex.com', 'yandex.ru', 'mail.ru', 'qq.com', '163.com',
  '126.com', 'fastmail.com', 'hey.com', 'tutanota.com', 'orange.fr', 'free.fr', 'laposte.net', 'libero.it', 'btinternet.com');

CREATE INDEX IF NOT EXISTS projects_email_domain ON read.projects (email_domain) WHERE email_domain IS NOT NULL;
CREATE INDEX IF NOT EXISTS projects_site_key ON read.projects (site_key) WHERE site_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS projects_customer_words_trgm ON read.projects USING gin (customer_words gin_trgm_ops);

-- Down Migration
DROP INDEX IF EXISTS read.projects_customer_words_trgm;
DROP INDEX IF EXISTS read.projects_site_key;
DROP INDEX IF EXISTS read.projects_email_domain;
ALTER TABLE read.projects DROP COLUMN IF EXISTS site_key;
ALTER TABLE read.projects DROP COLUMN IF EXISTS customer_words;
