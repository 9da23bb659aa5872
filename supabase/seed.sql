-- Local seed (runs after the migrations on a fresh local database; never on hosted).
-- Demo accounts, then about eight categories and thirty products. Images are the flat SVG
-- illustrations in public/products/ (made by scripts/make-product-images.ts).

-- ---------------------------------------------------------------------------------------------
-- Demo accounts. Written straight into auth.users + auth.identities the way the Auth server
-- stores an e-mail user (bcrypt hash, confirmed e-mail, empty-string token columns), so they can
-- sign in with a password at once. Fixed ids keep the seed re-runnable.
-- ---------------------------------------------------------------------------------------------

insert into auth.users (
  instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
  raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  confirmation_token, recovery_token, email_change_token_new, email_change,
  email_change_token_current, phone_change, phone_change_token, reauthentication_token,
  is_sso_user, is_anonymous
)
select
  '00000000-0000-0000-0000-000000000000'::uuid, v.id, 'authenticated', 'authenticated', v.email,
  extensions.crypt(v.password, extensions.gen_salt('bf', 10)), now(),
  '{"provider":"email","providers":["email"]}'::jsonb,
  jsonb_build_object('display_name', v.display_name, 'email_verified', true),
  now(), now(),
  '', '', '', '', '', '', '', '',
  false, false
from (values
  ('5eed0000-0000-4000-8000-00000000ad01'::uuid, 'admin@mar-online-store.test', 'admin123', 'Demo Admin'),
  ('5eed0000-0000-4000-8000-00000000c0de'::uuid, 'shopper@mar-online-store.test', 'shopper123', 'Demo Shopper')
) as v (id, email, password, display_name)
on conflict (id) do nothing;

insert into auth.identities (
  provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at
)
select
  u.id::text, u.id,
  jsonb_build_object('sub', u.id::text, 'email', u.email, 'email_verified', true,
                     'phone_verified', false),
  'email', now(), now(), now()
from auth.users u
where u.id in ('5eed0000-0000-4000-8000-00000000ad01', '5eed0000-0000-4000-8000-00000000c0de')
on conflict (provider_id, provider) do nothing;

-- Only the demo admin is an admin; the shopper stays an ordinary signed-in user.
insert into public.admins (user_id, email)
values ('5eed0000-0000-4000-8000-00000000ad01', 'admin@mar-online-store.test')
on conflict (user_id) do nothing;

-- ---------------------------------------------------------------------------------------------
-- Catalogue
-- ---------------------------------------------------------------------------------------------

insert into public.catagories (title) values
  ('Football'),
  ('Running'),
  ('Tennis'),
  ('Cricket'),
  ('Cycling'),
  ('Swimming'),
  ('Fitness'),
  ('Golf')
on conflict do nothing;

insert into public.products (title, cat, image, price, com, link) values
  -- Football
  ('Match Football Size 5', 'Football', '/products/match-football.svg', '£24.99',
   'FIFA Quality hand-stitched match ball with a butyl bladder that holds its shape and pressure all season.',
   'https://shop.example.com/football/match-football-size-5'),
  ('Firm Ground Football Boots', 'Football', '/products/football-boots.svg', '£64.99',
   'Lightweight synthetic upper with moulded studs for natural grass pitches. Sizes UK 6 to 12.',
   'https://shop.example.com/football/firm-ground-boots'),
  ('Goalkeeper Gloves', 'Football', '/products/goalkeeper-gloves.svg', '£29.50',
   'Latex palms with finger protection and a wide wrist strap for a secure fit.',
   'https://shop.example.com/football/goalkeeper-gloves'),
  ('Shin Guards', 'Football', '/products/shin-guards.svg', '£9.99',
   'Slip-in shin pads with a shaped polypropylene shell and soft foam backing.',
   'https://shop.example.com/football/shin-guards'),
  -- Running
  ('Road Running Shoes', 'Running', '/products/running-shoes.svg', '£89.99',
   'Cushioned everyday trainer with a breathable mesh upper and a durable rubber outsole.',
   'https://shop.example.com/running/road-running-shoes'),
  ('Lightweight Running Jacket', 'Running', '/products/running-jacket.svg', '£45',
   'Showerproof, packs into its own pocket, with reflective details for dark evenings.',
   'https://shop.example.com/running/lightweight-jacket'),
  ('Insulated Water Bottle 750ml', 'Running', '/products/water-bottle.svg', '£14.99',
   'Double-walled steel bottle that keeps drinks cold for 24 hours. BPA free.',
   'https://shop.example.com/running/insulated-bottle-750'),
  ('GPS Sports Watch', 'Running', '/products/sports-watch.svg', '£1,249.00',
   'Multi-band GPS, wrist heart rate, training plans and up to two weeks of battery life.',
   'https://shop.example.com/running/gps-sports-watch'),
  -- Tennis
  ('Graphite Tennis Racket', 'Tennis', '/products/tennis-racket.svg', '£119.00',
   '300 g graphite frame, 100 sq in head, strung with a multifilament string at 55 lb.',
   'https://shop.example.com/tennis/graphite-racket'),
  ('Tennis Balls (Tube of 4)', 'Tennis', '/products/tennis-balls.svg', '£6.50',
   'Pressurised championship balls approved for club and tournament play.',
   'https://shop.example.com/tennis/balls-tube-of-4'),
  ('Tennis Cap', 'Tennis', '/products/tennis-cap.svg', '£12',
   'Quick-dry cap with a sweatband and an adjustable strap.',
   'https://shop.example.com/tennis/cap'),
  ('Tennis Kit Bag', 'Tennis', '/products/tennis-bag.svg', '£39.99',
   'Holds three rackets, with a ventilated shoe compartment and padded shoulder straps.',
   'https://shop.example.com/tennis/kit-bag'),
  -- Cricket
  ('English Willow Cricket Bat', 'Cricket', '/products/cricket-bat.svg', '£149.99',
   'Grade 3 English willow, knocked in and ready to play, short handle.',
   'https://shop.example.com/cricket/english-willow-bat'),
  ('Leather Cricket Ball', 'Cricket', '/products/cricket-ball.svg', '£17.95',
   'Four-piece hand-stitched leather match ball, 156 g.',
   'https://shop.example.com/cricket/leather-ball'),
  ('Batting Helmet', 'Cricket', '/products/batting-helmet.svg', '£54.99',
   'Steel grille, adjustable fit and a lightweight ABS shell.',
   'https://shop.example.com/cricket/batting-helmet'),
  ('Batting Pads', 'Cricket', '/products/batting-pads.svg', '£42.00',
   'Lightweight pads with cane reinforcement and hook-and-loop straps.',
   'https://shop.example.com/cricket/batting-pads'),
  -- Cycling
  ('Road Bike Helmet', 'Cycling', '/products/cycling-helmet.svg', '£59.99',
   'In-mould construction with 18 vents and a dial fit system.',
   'https://shop.example.com/cycling/road-helmet'),
  ('Rechargeable Bike Light Set', 'Cycling', '/products/bike-lights.svg', '£27.99',
   'USB-C rechargeable front and rear lights, 400 lumens, five modes.',
   'https://shop.example.com/cycling/light-set'),
  ('Aluminium Road Bike', 'Cycling', '/products/road-bike.svg', '£749',
   'Lightweight aluminium frame, carbon fork and 16-speed gearing. Sizes S to XL.',
   'https://shop.example.com/cycling/aluminium-road-bike'),
  ('Padded Cycling Gloves', 'Cycling', '/products/cycling-gloves.svg', '£19.99',
   'Fingerless gloves with gel padding and a towelling thumb.',
   'https://shop.example.com/cycling/padded-gloves'),
  -- Swimming
  ('Anti-Fog Swimming Goggles', 'Swimming', '/products/swim-goggles.svg', '£11.99',
   'UV-protected lenses with an anti-fog coating and a split head strap.',
   'https://shop.example.com/swimming/anti-fog-goggles'),
  ('Silicone Swim Cap', 'Swimming', '/products/swim-cap.svg', '£5',
   'Durable, tear-resistant silicone cap that keeps hair out of the way.',
   'https://shop.example.com/swimming/silicone-cap'),
  ('Swimming Kickboard', 'Swimming', '/products/kickboard.svg', '£8.99',
   'EVA foam board for leg drills, suitable for all ages.',
   'https://shop.example.com/swimming/kickboard'),
  ('Microfibre Swim Towel', 'Swimming', '/products/swim-towel.svg', '£16.00',
   'Quick-drying, compact towel that packs into a mesh bag.',
   'https://shop.example.com/swimming/microfibre-towel'),
  -- Fitness
  ('Adjustable Dumbbell Pair', 'Fitness', '/products/dumbbells.svg', '£79.99',
   'Two dumbbells adjustable from 2.5 kg to 12.5 kg each, with a storage tray.',
   'https://shop.example.com/fitness/adjustable-dumbbells'),
  ('Yoga Mat 6mm', 'Fitness', '/products/yoga-mat.svg', '£22.50',
   'Non-slip, cushioned mat with a carry strap. 183 x 61 cm.',
   'https://shop.example.com/fitness/yoga-mat-6mm'),
  ('Cast Iron Kettlebell 16kg', 'Fitness', '/products/kettlebell.svg', '£44.99',
   'Single-piece cast iron with a wide, smooth handle for two-handed swings.',
   'https://shop.example.com/fitness/kettlebell-16kg'),
  ('Speed Skipping Rope', 'Fitness', '/products/skipping-rope.svg', '£7.99',
   'Adjustable steel cable rope with ball-bearing handles.',
   'https://shop.example.com/fitness/speed-rope'),
  -- Golf
  ('Golf Balls (Dozen)', 'Golf', '/products/golf-balls.svg', '£29.99',
   'Two-piece distance balls with a soft feel around the greens.',
   'https://shop.example.com/golf/balls-dozen'),
  ('Titanium Golf Driver', 'Golf', '/products/golf-driver.svg', '£249.99',
   '460 cc titanium head with adjustable loft from 9 to 12 degrees.',
   'https://shop.example.com/golf/titanium-driver'),
  ('Leather Golf Glove', 'Golf', '/products/golf-glove.svg', '£13.99',
   'Soft cabretta leather glove for a confident grip. Left hand.',
   'https://shop.example.com/golf/leather-glove'),
  ('Golf Umbrella', 'Golf', '/products/golf-umbrella.svg', 'Price on request',
   'Double-canopy 62 inch umbrella built for windy links courses.',
   'https://shop.example.com/golf/umbrella')
on conflict do nothing;

-- Store settings (docs/decisions/0211): demo social pages, so `npm start` shows "Follow us", and
-- demo trader details (clearly not a real business) for the footer and the contact page.
update public.store_settings set
  instagram_url = 'https://www.instagram.com/maronlinestore.demo',
  facebook_url = 'https://www.facebook.com/maronlinestore.demo',
  x_url = 'https://x.com/maronlinestore_demo',
  trader_name = 'MAR Online Store Demo Ltd (demo details)',
  trader_address = '1 Demo Street, Example Town, EX1 2MP, United Kingdom',
  company_number = '00000000',
  vat_number = null
where id;

-- The banner's built-in slides lead to their categories (REQ-PATH-7), as src/texts.ts's do.
update public.storefront_content set
  slide_1_link = '/?cat=Football',
  slide_2_link = '/?cat=Tennis',
  slide_3_link = '/?cat=Running'
where id;
