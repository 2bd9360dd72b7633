// Goods that meet across classes: the pairs of Nice classes whose goods or services tribunals have
// found related, each with the reason in words and the decisions that found it, and the test of a
// record's goods text against them. Pure, no I/O. docs/matching.md ("Related classes") explains the
// use: a record in a related class is a candidate, its alert weaker than one in the same class.
//
// Sources (published decisions and office practice; each pair names its own below):
// - The relatedness of goods is a factor of every likelihood-of-confusion test: the du Pont
//   factors applied by the Federal Circuit and the TTAB (In re Majestic Distilling Co., 315 F.3d
//   1311 (Fed. Cir. 2003)); the EUIPO's factors (nature, purpose, method of use, complementarity,
//   competition, distribution channels, relevant public, usual origin) in its Guidelines for
//   Examination of EU trade marks, Part C, Section 2, Chapter 2 "Comparison of goods and services",
//   which also treats restaurant services against foodstuffs and drinks.
// - A pair is listed only when a decision below found goods of those two classes related.
import { TRAILING_COMPANY_WORDS } from './common-words.ts';
import { niceClassHeading } from './nice-classes.ts';

/** One side of a relation: its class, what it is called, and the words of a goods text that show it. */
export interface GoodsSide {
  niceClass: number;
  /** The goods in a lawyer's words: "beer". */
  name: string;
  /** Words (upper case, whole words or their plurals) that put a goods text on this side. */
  terms: readonly string[];
  /**
   * The class that held these goods before the Nice Classification moved them, with the words or
   * phrases of a goods text there that show them: a record of that time keeps its old class, and
   * only its text tells these goods from the class's others. Without such a text it never meets,
   * nor when it was filed in or after the year `until` (the class then held them no more).
   */
  former?: { niceClass: number; terms: readonly string[]; until: string };
}

export interface ClassRelation {
  sides: readonly [GoodsSide, GoodsSide];
  /** Why the goods meet, in words: "alcoholic beverages sold through the same channels". */
  reason: string;
  /** The decisions that found such goods related. */
  sources: readonly string[];
}

const BEER: GoodsSide = {
  niceClass: 32,
  name: 'beer',
  terms: ['BEER', 'ALE', 'LAGER', 'STOUT', 'PORTER', 'PILSNER', 'PILS', 'MALT', 'RADLER', 'BREW'],
};
const WINE_SPIRITS: GoodsSide = {
  niceClass: 33,
  name: 'wine and spirits',
  terms: [
    'WINE',
    'SPIRIT',
    'TEQUILA',
    'VODKA',
    'WHISKY',
    'WHISKEY',
    'GIN',
    'RUM',
    'BRANDY',
    'LIQUEUR',
    'LIQUOR',
    'CHAMPAGNE',
    'ALCOHOLIC',
  ],
};
const SOFT_DRINKS: GoodsSide = {
  niceClass: 32,
  name: 'soft and energy drinks',
  terms: [
    'ENERGY',
    'SOFT',
    'WATER',
    'JUICE',
    'SODA',
    'BEVERAGE',
    'DRINK',
    'SYRUP',
    'NON-ALCOHOLIC',
  ],
};
/**
 * Non-alcoholic drinks against wine and spirits: the EUIPO's Grand Board found them at least
 * slightly similar, waters apart (R 964/2020-G), so waters are no term of this side.
 */
const NON_ALCOHOLIC: GoodsSide = {
  niceClass: 32,
  name: 'non-alcoholic beverages',
  terms: ['NON-ALCOHOLIC', 'SOFT', 'ENERGY', 'JUICE', 'SODA', 'LEMONADE', 'CARBONATED'],
};
const PHARMA: GoodsSide = {
  niceClass: 5,
  name: 'pharmaceuticals and dietary supplements',
  terms: ['PHARMACEUTICAL', 'MEDICATED', 'MEDICINE', 'DRUG', 'SUPPLEMENT', 'VITAMIN', 'MEDICAL'],
};
const COSMETICS: GoodsSide = {
  niceClass: 3,
  name: 'cosmetics',
  terms: ['COSMETIC', 'SKIN', 'HAIR', 'CREAM', 'LOTION', 'SERUM', 'PERFUME', 'SOAP', 'SHAMPOO'],
};
const DAIRY_MEAT: GoodsSide = {
  niceClass: 29,
  name: 'meat, cheese and other prepared foods',
  terms: [
    'MEAT',
    'CHEESE',
    'YOGURT',
    'YOGHURT',
    'MILK',
    'SAUSAGE',
    'HAM',
    'POULTRY',
    'EGG',
    'DAIRY',
  ],
};
const BAKERY: GoodsSide = {
  niceClass: 30,
  name: 'bakery goods, cereals and coffee',
  terms: [
    'BREAD',
    'BAKERY',
    'PASTRY',
    'CAKE',
    'CEREAL',
    'COFFEE',
    'TEA',
    'BISCUIT',
    'SAUCE',
    'MUSTARD',
  ],
};
const RESTAURANT: GoodsSide = {
  niceClass: 43,
  name: 'restaurant services',
  terms: ['RESTAURANT', 'CAFE', 'CAFETERIA', 'BAR', 'CATERING', 'FOOD', 'DRINK', 'PUB', 'BREWPUB'],
  // Until the 8th edition of the Nice Classification (in force 1 January 2002) class 42 held
  // "providing of food and drink" with temporary accommodation, legal, scientific and computer
  // services; registrations of that time keep class 42 (In re Opus One Inc., 60 USPQ2d 1812 (TTAB
  // 2001) compared wine with class 42 restaurant services). Class 42 now holds food testing and
  // food technology, so the words here name the services, not food alone.
  former: {
    niceClass: 42,
    terms: ['RESTAURANT', 'CAFE', 'CAFETERIA', 'CATERING', 'PUB', 'BREWPUB', 'FOOD AND DRINK'],
    until: '2002',
  },
};
/** Clothing: the words of the class 25 heading and its common goods (underwear and hosiery too). */
const CLOTHING: GoodsSide = {
  niceClass: 25,
  name: 'clothing',
  terms: [
    'CLOTHING',
    'SHIRT',
    'T-SHIRT',
    'APPAREL',
    'CAP',
    'HAT',
    'HEADGEAR',
    'FOOTWEAR',
    'SHOE',
    'BOOT',
    'JACKET',
    'COAT',
    'DRESS',
    'SKIRT',
    'TROUSERS',
    'PANTS',
    'JEANS',
    'SWEATER',
    'SWEATSHIRT',
    'UNDERWEAR',
    'LINGERIE',
    'HOSIERY',
    'GIRDLE',
    'SCARF',
    'GLOVE',
  ],
};
const ENTERTAINMENT: GoodsSide = {
  niceClass: 41,
  name: 'entertainment services',
  terms: [
    'ENTERTAINMENT',
    'MUSIC',
    'CONCERT',
    'PERFORMANCE',
    'SHOW',
    'TELEVISION',
    'FILM',
    'EVENT',
    'AMUSEMENT',
    'ATTRACTION',
  ],
};
const RECORDINGS: GoodsSide = {
  niceClass: 9,
  name: 'sound and video recordings',
  terms: ['RECORDING', 'AUDIO', 'VIDEO', 'MUSIC', 'DOWNLOADABLE', 'RECORD'],
};
const RETAIL: GoodsSide = {
  niceClass: 35,
  name: 'retail store services',
  terms: ['RETAIL', 'STORE', 'SHOP', 'SHOPS', 'CONSIGNMENT', 'ONLINE', 'WHOLESALE'],
};
const TOBACCO: GoodsSide = {
  niceClass: 34,
  name: 'tobacco products',
  terms: ['TOBACCO', 'CIGARETTE', 'CIGAR', 'CIGARILLO', 'SMOKING', 'SNUFF'],
};
const MAGAZINES: GoodsSide = {
  niceClass: 16,
  name: 'magazines and periodicals',
  terms: ['MAGAZINE', 'PERIODICAL', 'JOURNAL', 'NEWSPAPER', 'PUBLICATION'],
};
/** Class 3 holds car polishes and waxes as well as cosmetics: only those meet car washes. */
const CAR_CARE: GoodsSide = {
  niceClass: 3,
  name: 'car care products',
  terms: ['CAR', 'AUTOMOBILE', 'VEHICLE', 'WAX', 'POLISH'],
};
const CAR_WASH: GoodsSide = {
  niceClass: 37,
  name: 'car wash services',
  terms: ['WASH', 'WASHING', 'DETAILING', 'VALETING'],
};
const UTENSILS: GoodsSide = {
  niceClass: 21,
  name: 'cosmetic utensils',
  terms: ['UTENSIL', 'BRUSH', 'SPONGE', 'APPLICATOR', 'COSMETIC'],
};

/** The related class pairs. Order does not matter: a relation holds both ways. */
export const CLASS_RELATIONS: readonly ClassRelation[] = [
  {
    sides: [BEER, WINE_SPIRITS],
    reason: 'alcoholic beverages sold through the same channels to the same consumers',
    sources: [
      'In re Chatam International Inc., 380 F.3d 1340 (Fed. Cir. 2004): GASPAR’S ALE (beer) / JOSE GASPAR GOLD (tequila)',
      'In re Majestic Distilling Co., 315 F.3d 1311 (Fed. Cir. 2003): RED BULL (malt liquor) / RED BULL (tequila)',
      'In re Kysela Pere et Fils, Ltd., 98 USPQ2d 1261 (TTAB 2011): HB (beer) / HB (wine)',
      'In re Cerveceria Primus, Serial No. 87460794 (TTAB Mar. 19, 2019): TEMPUS TWO (wines) / TEMPUS (beer)',
    ],
  },
  {
    sides: [WINE_SPIRITS, NON_ALCOHOLIC],
    reason:
      'alcoholic and non-alcoholic drinks are sold side by side, mixed together and increasingly made by the same producers in low- and no-alcohol versions',
    sources: [
      'EUIPO Grand Board of Appeal, 13 April 2022, R 964/2020-G, ZORAYA / VIÑA ZORAYA: non-alcoholic beverages and flavoured carbonated beverages at least slightly similar to wines, spirits and liqueurs (waters not)',
    ],
  },
  {
    sides: [WINE_SPIRITS, DAIRY_MEAT],
    reason: 'wine and cheese are sold, served and advertised together',
    sources: [
      'E. & J. Gallo Winery v. Gallo Cattle Co., 967 F.2d 1280 (9th Cir. 1992): GALLO (wine) / GALLO (cheese)',
    ],
  },
  {
    sides: [DAIRY_MEAT, BAKERY],
    reason: 'foodstuffs sold side by side in the same grocery stores to the same shoppers',
    sources: [
      'In re Martin’s Famous Pastry Shoppe, Inc., 748 F.2d 1565 (Fed. Cir. 1984): MARTIN’S (cheese) / MARTIN’S (bread)',
      'General Mills, Inc. v. Fage Dairy Processing Industry S.A., 100 USPQ2d 1584 (TTAB 2011): TOTAL (cereal) / FAGE TOTAL (yogurt)',
    ],
  },
  ...[BAKERY, DAIRY_MEAT, BEER, WINE_SPIRITS].map(
    (food): ClassRelation => ({
      sides: [food, RESTAURANT],
      reason:
        'food and drink are served in restaurants, which often sell their own under the same name (more than the food itself must show the link)',
      sources: [
        'In re Opus One Inc., 60 USPQ2d 1812 (TTAB 2001): OPUS ONE (wine) / OPUS ONE (restaurant services)',
        'In re Golden Griddle Pancake House Ltd., 17 USPQ2d 1074 (TTAB 1990): GOLDEN GRIDDLE (table syrup) / GOLDEN GRIDDLE PANCAKE HOUSE (restaurant services)',
        'Jacobs v. International Multifoods Corp., 668 F.2d 1234 (CCPA 1982): food and restaurant services are not related by the food alone',
      ],
    }),
  ),
  {
    sides: [PHARMA, COSMETICS],
    reason: 'medicated and cosmetic care products serve the same purpose and reach the same buyers',
    sources: [
      'Allergan, Inc. v. Gems Style Inc., Opposition No. 91246051 (TTAB Nov. 6, 2020): BOTOX (pharmaceuticals) / BOTO SMART (hair care)',
    ],
  },
  {
    sides: [PHARMA, SOFT_DRINKS],
    reason:
      'dietary supplements and energy drinks are taken for the same purpose and sold together',
    sources: [
      'In re Dub Nutrition, LLC, Serial No. 77752113 (TTAB Oct. 3, 2012): DUB (energy drinks) / DUB (dietary supplements)',
    ],
  },
  {
    sides: [BAKERY, SOFT_DRINKS],
    reason:
      'coffee and energy drinks are both drunk for their caffeine and sold in the same outlets',
    sources: [
      'Energy Beverages LLC v Cantarella Bros Pty Ltd [2023] FCAFC 44: MOTHER (energy drinks) / MOTHERSKY (coffee)',
    ],
  },
  {
    sides: [CLOTHING, ENTERTAINMENT],
    reason: 'entertainers and events sell clothing under their own names as merchandise',
    sources: [
      'Mutual of Omaha Ins. Co. v. Novak, 836 F.2d 397 (8th Cir. 1987): MUTUAL OF OMAHA (insurance and a sponsored television programme) / MUTANT OF OMAHA (T-shirts)',
    ],
  },
  {
    sides: [RECORDINGS, ENTERTAINMENT],
    reason: 'music is sold as recordings and performed live by the same artists',
    sources: [
      'In re Brian Meneely, Serial No. 86751019 (TTAB July 26, 2017): HIGHER POWER (music performances) / HIGH R. POWER (recordings)',
    ],
  },
  {
    sides: [CLOTHING, RETAIL],
    reason: 'clothing is sold through the retail stores that carry it',
    sources: [
      'In re Detroit Athletic Co., 903 F.3d 1297 (Fed. Cir. 2018): DETROIT ATHLETIC CLUB (clothing) / DETROIT ATHLETIC CO. (retail store services featuring sports clothing)',
    ],
  },
  {
    sides: [BEER, TOBACCO],
    reason: 'beer and cigarettes are bought side by side, by the same adult buyers',
    sources: [
      'Carling Brewing Co. v. Philip Morris Inc., 297 F. Supp. 1330 (N.D. Ga. 1968): BLACK LABEL (beer) / BLACK LABEL (cigarettes)',
    ],
  },
  // The older rule asked for a famous mark before spirits and tobacco met (Schenley Distillers,
  // Inc. v. General Cigar Co., 166 USPQ 142 (CCPA 1970)); the Board has since found the goods
  // complementary on evidence of trade practice, for marks that are not famous.
  {
    sides: [WINE_SPIRITS, TOBACCO],
    reason:
      'spirits and cigars are marketed to be enjoyed together, and distillers and vintners sell cigars under their own marks',
    sources: [
      'In re El Galan, Inc., Serial No. 86961428 (TTAB Feb. 1, 2018): TERNURA (liquor, tequila, vodka, wines) / TERNURA (cigars)',
      'Nemiroff Intellectual Property Establishment v. RAM Development Associates LLC, Opposition No. 91244891 (TTAB Apr. 11, 2024): NEMIROFF (brandy, vodka, liqueurs) / NEMIROFF (cigars, cigarettes)',
    ],
  },
  {
    sides: [MAGAZINES, CLOTHING],
    reason:
      'a magazine written for a public lends its title to goods for that public, which its readers take for the publisher’s',
    sources: [
      'Triangle Publications, Inc. v. Rohrlich, 167 F.2d 969 (2d Cir. 1948): SEVENTEEN (magazine for girls) / MISS SEVENTEEN (girdles)',
    ],
  },
  {
    sides: [ENTERTAINMENT, RESTAURANT],
    reason:
      'visitors eat where they are entertained: an amusement attraction and a restaurant were found related',
    sources: [
      'In re Adrenalin Technologies, LLC, Serial No. 90303848 (TTAB Jan. 31, 2024): NIFTY FIFTY’S (restaurant services) / NIFTY FIFTIES (amusement park attraction)',
    ],
  },
  {
    sides: [CAR_CARE, CAR_WASH],
    reason:
      'car waxes and cleaners are used on the cars that car washes clean, for the same owners',
    sources: [
      'Wynn Oil Co. v. Thomas, 839 F.2d 1183 (6th Cir. 1988): CLASSIC (car care products) / CLASSIC CAR WASH (car wash services)',
    ],
  },
  {
    sides: [COSMETICS, UTENSILS],
    reason: 'cosmetics and the utensils to apply them are used together and sold side by side',
    sources: [
      'General Court, 21 February 2024, Azalee Cosmetics v EUIPO – L’Oréal (UK) (LA CRÈME LIBRE): LIBRE (perfumes) / LA CRÈME LIBRE (cosmetic utensils)',
    ],
  },
];

/** Where the goods of a watch and of a record meet in a related class pair. */
export interface GoodsMeeting {
  watchClass: number;
  recordClass: number;
  /** The goods of each side, in words ("beer", or the class heading when no term is known). */
  watchGoods: string;
  recordGoods: string;
  reason: string;
  /** The words of the record's goods text that show its side; empty when it has none. */
  terms: string[];
  source: string;
  /**
   * The year from which the record's class no longer holds these goods (they met by its goods
   * text alone: a registration of that time keeps its old class); null in the goods' own class.
   */
  formerUntil: string | null;
  /**
   * In the former class: the record's filing date (ISO), before `formerUntil`; null when its source
   * gives none (the text alone then decides). Null in the goods' own class.
   */
  filedAt: string | null;
}

const WORD = /[\p{L}-]+/gu;

/**
 * The terms that a goods text holds: a one-word term as a word or its plural, a phrase as its
 * words in a row (each word or its plural).
 */
function termsIn(text: string, terms: readonly string[]): string[] {
  const words = (text.toUpperCase().match(WORD) ?? []).map((w) => w.replace(/S$/, ''));
  // Where each word stands: a USPTO goods text runs to thousands of words, and a term is looked
  // up at the places of its first word only.
  const at = new Map<string, number[]>();
  words.forEach((w, i) => {
    const places = at.get(w);
    if (places === undefined) at.set(w, [i]);
    else places.push(i);
  });
  const holds = (term: string): boolean => {
    const parts = term.split(' ').map((t) => t.replace(/S$/, ''));
    return (at.get(parts[0] as string) ?? []).some((i) =>
      parts.every((part, k) => words[i + k] === part),
    );
  };
  return terms.filter(holds);
}

/**
 * The classes related to any of `classes` (not themselves among them), with the former classes
 * of the related goods (where a record meets by its goods text only): the classes a watch's
 * candidates may come from.
 */
export function relatedClassesOf(classes: Iterable<number>): number[] {
  const own = new Set(classes);
  const out = new Set<number>();
  for (const r of CLASS_RELATIONS) {
    for (const [w, m] of [r.sides, [r.sides[1], r.sides[0]]] as const) {
      if (!own.has(w.niceClass)) continue;
      for (const c of [m.niceClass, m.former?.niceClass]) {
        if (c !== undefined && !own.has(c)) out.add(c);
      }
    }
  }
  return [...out].sort((x, y) => x - y);
}

/**
 * Where a record in classes the watch does not have meets the watch's goods: the first related
 * pair of a watch class and a record class. Where the record's office publishes its goods text for
 * that class, the text must hold a term of the pair's record side (a class 33 record for "wine"
 * meets a beer watch; one for "alcohol for industrial use" does not); where it publishes none, the
 * Nice class headings stand for the goods. A record in a side's former class meets by its goods
 * text alone (a class 42 record for "restaurant services" meets a wine watch; one for "computer
 * programming", or with no text, does not), and only if it was filed before the class gave them
 * up (`filedAt`, ISO, where the source gives it: a class 42 record filed in 2019 for "software for
 * restaurants" is software). Null when no pair relates them.
 */
export function goodsMeeting(
  watchClasses: ReadonlySet<number>,
  recordClasses: readonly number[],
  goods: readonly { niceClass: number; text: string }[] = [],
  filedAt: string | null = null,
): GoodsMeeting | null {
  const textsOf = (niceClass: number) =>
    goods.filter((g) => g.niceClass === niceClass && g.text.trim() !== '');
  for (const r of CLASS_RELATIONS) {
    for (const [w, m] of [r.sides, [r.sides[1], r.sides[0]]] as const) {
      if (!watchClasses.has(w.niceClass)) continue;
      const meeting = {
        watchClass: w.niceClass,
        watchGoods: w.name,
        reason: r.reason,
        source: r.sources[0] as string,
      };
      if (recordClasses.includes(m.niceClass)) {
        const texts = textsOf(m.niceClass);
        const terms = [...new Set(texts.flatMap((g) => termsIn(g.text, m.terms)))];
        if (texts.length > 0 && terms.length === 0) continue;
        return {
          ...meeting,
          recordClass: m.niceClass,
          recordGoods: texts.length > 0 ? m.name : (niceClassHeading(m.niceClass) ?? m.name),
          terms,
          formerUntil: null,
          filedAt: null,
        };
      }
      const former = m.former;
      if (former === undefined || !recordClasses.includes(former.niceClass)) continue;
      if (filedAt !== null && filedAt.slice(0, 10) >= `${former.until}-01-01`) continue;
      const terms = [
        ...new Set(textsOf(former.niceClass).flatMap((g) => termsIn(g.text, former.terms))),
      ];
      if (terms.length === 0) continue;
      return {
        ...meeting,
        recordClass: former.niceClass,
        recordGoods: m.name,
        terms,
        formerUntil: former.until,
        filedAt: filedAt === null ? null : filedAt.slice(0, 10),
      };
    }
  }
  return null;
}

/** The rationale's sentence on goods that meet across classes. */
export function meetingSentence(m: GoodsMeeting): string {
  const named =
    m.terms.length > 0
      ? ` (the record's goods name ${m.terms.map((t) => t.toLowerCase()).join(', ')})`
      : ' (the source publishes no goods text for it: the class heading stands for them)';
  const filed =
    m.filedAt === null ? 'filing date not published by this source' : `filed on ${m.filedAt}`;
  const held =
    m.formerUntil === null ? '' : `, the class of these services until ${m.formerUntil}; ${filed}`;
  return `No Nice class is shared, but the goods are related: ${m.watchGoods} (class ${m.watchClass}, watched) and ${m.recordGoods} (class ${m.recordClass}, this record${held})${named}, ${m.reason}. Found related in ${m.source}. A related class weighs less than the same class: the severity is at most medium, even for the same text.`;
}

/**
 * The words that name the goods of these classes or of the classes related to them: every term
 * of a relation side in one of the classes, and of the sides related to it (BREW,
 * ALE and WINE for a class 32 watch). A mark's word that names the goods describes them (NORTH
 * COAST BREWING is the brand NORTH COAST for beer), so the `without_goods` rule compares two marks
 * without such words. Only the classes this table relates have words: others have none.
 */
export function goodsWordsOf(classes: Iterable<number>): ReadonlySet<string> {
  const own = new Set(classes);
  const out = new Set<string>();
  for (const r of CLASS_RELATIONS) {
    if (!r.sides.some((s) => own.has(s.niceClass))) continue;
    for (const side of r.sides) {
      for (const term of side.terms) out.add(term);
    }
  }
  return out;
}

/** Endings that make a trade or a place of the goods (BREWING, BREWERY, WINERY): 4+ letter terms. */
const TRADE_ENDINGS = ['ING', 'ERY', 'ERIES'];
const TRADE_TERM_MIN = 4;

/**
 * Does a word (normalized, upper case) name goods of `goodsWords` (goodsWordsOf): a term, its
 * plural (WINES, BAKERIES), or for a term of 4+ letters its trade or place (BREWING, BREWERY,
 * WINERY)?
 */
export function namesGoods(word: string, goodsWords: ReadonlySet<string>): boolean {
  if (goodsWords.has(word)) return true;
  const plurals: string[] = [];
  if (word.endsWith('IES')) plurals.push(`${word.slice(0, -3)}Y`);
  if (word.endsWith('ES')) plurals.push(word.slice(0, -2));
  if (word.endsWith('S')) plurals.push(word.slice(0, -1));
  if (plurals.some((s) => goodsWords.has(s))) return true;
  return TRADE_ENDINGS.some((ending) => {
    if (!word.endsWith(ending)) return false;
    const stem = word.slice(0, -ending.length);
    return [stem, `${stem}E`].some((s) => s.length >= TRADE_TERM_MIN && goodsWords.has(s));
  });
}

/**
 * Which of a mark's words (normalized, upper case) the `without_goods` rule leaves out: those that
 * name goods (namesGoods), and the company words that close the mark (NORTHCOAST WINE CO.). Null
 * when no word names goods: company words alone are the `contains_brand` rule's.
 */
export function goodsWordMask(
  words: readonly string[],
  goodsWords: ReadonlySet<string>,
): boolean[] | null {
  const mask = words.map((w) => namesGoods(w, goodsWords));
  if (!mask.includes(true)) return null;
  for (let i = words.length - 1; i >= 0 && TRAILING_COMPANY_WORDS.has(words[i] as string); i--) {
    mask[i] = true;
  }
  return mask;
}
