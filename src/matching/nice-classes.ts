// The Nice Classification's class headings (WIPO, 12th edition), shortened to their first items
// so that a rationale can name what a shared class covers. The heading only indicates the field a
// class covers; what a mark actually protects is its own list of goods and services.

const HEADINGS: readonly string[] = [
  'chemicals for use in industry, science and agriculture',
  'paints, varnishes, lacquers; colorants, dyes',
  'non-medicated cosmetics and toiletries; cleaning preparations; perfumery',
  'industrial oils and greases; lubricants; fuels; candles',
  'pharmaceuticals, medical and veterinary preparations; dietary supplements',
  'common metals and their alloys; metal building materials; small items of metal hardware',
  'machines, machine tools, power-operated tools; motors and engines',
  'hand tools and implements, hand-operated; cutlery',
  'scientific and electronic apparatus; recorded and downloadable media; computer software',
  'surgical, medical, dental and veterinary apparatus and instruments',
  'apparatus for lighting, heating, cooling, cooking, drying, ventilating and water supply',
  'vehicles; apparatus for locomotion by land, air or water',
  'firearms; ammunition and projectiles; explosives; fireworks',
  'precious metals; jewellery; horological and chronometric instruments',
  'musical instruments',
  'paper and cardboard; printed matter; stationery and office requisites',
  'unprocessed and semi-processed rubber and plastics; packing and insulating materials',
  'leather and imitations of leather; luggage and carrying bags; umbrellas',
  'non-metallic building materials',
  'furniture, mirrors, picture frames; containers, not of metal',
  'household or kitchen utensils and containers; cookware; glassware, porcelain',
  'ropes and string; nets; tents and tarpaulins; sacks',
  'yarns and threads for textile use',
  'textiles and substitutes for textiles; household linen; curtains',
  'clothing, footwear, headwear',
  'lace, braid and embroidery; buttons, hooks and eyes; artificial flowers',
  'carpets, rugs, mats; wall hangings (non-textile)',
  'games, toys and playthings; gymnastic and sporting articles',
  'meat, fish, poultry; preserved and cooked fruits and vegetables; dairy products',
  'coffee, tea, cocoa; rice, pasta; bread, pastries and confectionery; sauces, spices',
  'raw and unprocessed agricultural, aquacultural, horticultural and forestry products',
  'beers; non-alcoholic beverages; mineral and aerated waters; fruit beverages',
  'alcoholic beverages, except beers',
  'tobacco and tobacco substitutes; cigarettes and cigars; smokers’ articles',
  'advertising; business management and administration; office functions',
  'financial, monetary and banking services; insurance services; real estate affairs',
  'construction services; installation and repair services; mining extraction',
  'telecommunications services',
  'transport; packaging and storage of goods; travel arrangement',
  'treatment of materials; recycling of waste; printing services',
  'education; providing of training; entertainment; sporting and cultural activities',
  'scientific and technological services and research; design and development of computer hardware and software',
  'services for providing food and drink; temporary accommodation',
  'medical services; veterinary services; hygienic and beauty care; agricultural services',
  'legal services; security services; personal and social services',
];

/** The shortened heading of Nice class 1-45, or null for any other number. */
export function niceClassHeading(niceClass: number): string | null {
  return HEADINGS[niceClass - 1] ?? null;
}
