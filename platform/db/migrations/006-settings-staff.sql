-- Site settings, slider images and staff removal.

-- One row per setting; `value` is the setting's wire shape (numbers in jsonb are exact numerics).
CREATE TABLE site_settings (
  key         text PRIMARY KEY CHECK (key IN ('bank-details', 'whatsapp', 'telegram', 'bonus', 'ref-bonus', 'main-bonus')),
  value       jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO site_settings (key, value) VALUES
  ('bank-details', '{"bankName": "State Bank of India", "holder": "Betdesk Gaming Pvt Ltd", "accNo": "30012345678",
                     "ifsc": "SBIN0001234", "usdt": "TQ4m9ZPvSgDj4sY6wXDvMx1bKzGq8rJm7N",
                     "upiId": [{"value": "betdesk@sbi", "token": "Primary UPI"}]}'),
  ('whatsapp', '{"number": "+919876543210"}'),
  ('telegram', '{"number": "@betdesk_support"}'),
  ('bonus', '{"bonus": 5}'),
  ('ref-bonus', '{"bonus": 100}'),
  ('main-bonus', '{"bonus": 10}');

-- Slider images: files under DATA_DIR/uploads/slider, named here.
CREATE TABLE slider_images (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  file_name   text NOT NULL UNIQUE,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- A removed staff account stays (its ledger transfers, decisions and audit rows name it) but can
-- no longer sign in; its username stays taken.
ALTER TABLE admins ADD COLUMN removed_at timestamptz;

