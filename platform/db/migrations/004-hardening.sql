-- Money and input hardening: bonus limits in the site settings, the balance ceiling as a
-- database check, and settings changes in the audit log.

-- The largest bonus one deposit decision may grant (main bonus + bonus, coupons aside):
-- a percentage of the credited amount and an INR amount in minor units (1,00,000.00 INR).
ALTER TABLE settings ADD COLUMN bonus_max_percent numeric(5, 2) NOT NULL DEFAULT 100
  CHECK (bonus_max_percent >= 0 AND bonus_max_percent <= 100);
ALTER TABLE settings ADD COLUMN bonus_max_inr bigint NOT NULL DEFAULT 10000000
  CHECK (bonus_max_inr >= 0 AND bonus_max_inr <= 100000000000);

-- MAX_BALANCE (platform/money.ts): ±1,000,000,000,000.00 in minor units. The platform refuses
-- a transfer beyond it before writing; this is the last line. NOT VALID: rows written before
-- the ceiling existed stay readable (and list), new writes are checked.
ALTER TABLE admins ADD CONSTRAINT admins_balance_ceiling
  CHECK (balance BETWEEN -100000000000000 AND 100000000000000) NOT VALID;
ALTER TABLE users ADD CONSTRAINT users_balance_ceiling
  CHECK (balance BETWEEN 0 AND 100000000000000 AND bonus <= 100000000000000) NOT VALID;
ALTER TABLE system_accounts ADD CONSTRAINT system_accounts_balance_ceiling
  CHECK (balance <= 100000000000000) NOT VALID;

-- Settings changes are audited with their values before and after: {"before": …, "after": …}.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_target_kind_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_target_kind_check CHECK (target_kind IN ('admin', 'user', 'settings'));
ALTER TABLE audit_log ADD COLUMN change jsonb;
