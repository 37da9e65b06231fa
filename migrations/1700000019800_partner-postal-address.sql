-- Up Migration
-- The questionnaire's optional state/region and postal code: with street, city and country they make the
-- organisation's profile a complete shipping address, which the shipping form prefills.
ALTER TABLE read.partners ADD COLUMN state_region text, ADD COLUMN postal_code text;

-- Down Migration
ALTER TABLE read.partners DROP COLUMN state_region, DROP COLUMN postal_code;
