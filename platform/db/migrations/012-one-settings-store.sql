-- One settings store, owned by the settings module (issue 17). The default admin and the bonus
-- limits, a row of their own table until now, become keys beside the site settings, each value
-- the setting's wire shape, and the key/value table takes the name `settings`.

ALTER TABLE site_settings DROP CONSTRAINT site_settings_key_check;

-- The partner that receives end users created by the super admin or staff: {"id": "<admin id>"}.
INSERT INTO site_settings (key, value)
  SELECT 'default-admin', jsonb_build_object('id', default_admin_id::text) FROM settings WHERE default_admin_id IS NOT NULL;

-- The largest bonus one deposit decision may grant: a percentage and an INR amount (was minor units).
INSERT INTO site_settings (key, value)
  SELECT 'bonus-limits', jsonb_build_object('maxPercent', bonus_max_percent, 'maxInr', round(bonus_max_inr::numeric / 100, 2)) FROM settings;

DROP TABLE settings;
ALTER TABLE site_settings RENAME TO settings;
ALTER TABLE settings RENAME CONSTRAINT site_settings_pkey TO settings_pkey;

ALTER TABLE settings ADD CONSTRAINT settings_key_check CHECK (key IN (
  'bank-details', 'whatsapp', 'telegram', 'bonus', 'ref-bonus', 'main-bonus', 'default-admin', 'bonus-limits'));
-- Migration 004's checks on the limits, kept as the last line behind the route's.
ALTER TABLE settings ADD CONSTRAINT settings_bonus_limits_check CHECK (key <> 'bonus-limits' OR (
  (value ->> 'maxPercent')::numeric BETWEEN 0 AND 100 AND (value ->> 'maxInr')::numeric BETWEEN 0 AND 1000000000));
