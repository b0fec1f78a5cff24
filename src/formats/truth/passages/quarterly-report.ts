/**
 * A small company's year, quarter by quarter: revenue and costs in different sentence shapes, a
 * forecast beside the actual figure, and events that fill the prose. Questions combine figures from
 * two quarters; the wrong answers take the forecast, or the neighbouring quarter's figure.
 */
import type { Draw } from '../seeded-draw.js';
import { type GeneratedPassage, paragraphs } from './passage.js';

const COMPANIES = [
  'Alder & Finch',
  'Brightwater Tools',
  'Copperline Foods',
  'Dunmore Textiles',
  'Eastgate Ceramics',
  'Fernhill Cycles',
  'Greystone Printing',
  'Hollow Oak Furniture',
];
const PRODUCTS = [
  'garden tools',
  'bicycle parts',
  'ceramic tiles',
  'printed labels',
  'wool blankets',
  'oak tables',
  'tinned soups',
  'solar lamps',
];
const TOWNS = ['Ashford', 'Brampton', 'Carlow', 'Deverill', 'Elmstead', 'Fairholme', 'Gorran', 'Hexley'];
const QUARTERS = ['first', 'second', 'third', 'fourth'] as const;

const EVENTS = [
  'A new supplier shortened delivery times for raw materials.',
  'Two long-serving members of staff retired and were replaced from within.',
  'The warehouse roof was repaired after a storm, at some disruption to dispatch.',
  'A trade fair brought in several new wholesale customers.',
  'The company renegotiated its energy contract for the coming two years.',
  'A product line that had sold poorly for years was withdrawn.',
  'The website was rebuilt so that customers can follow their orders.',
  'A second delivery van was leased to serve customers further afield.',
  'Staff completed a round of safety training required by the insurer.',
  'An export order was delayed at the port and shipped a month late.',
  'The packaging was changed to recycled card at a small extra cost.',
  'A local newspaper ran a feature on the workshop and its apprentices.',
  'One of the older machines broke down and was repaired rather than replaced.',
  'The company took on two apprentices from the technical college.',
  'A large customer asked for longer payment terms, which the board agreed to for one year.',
  'Sales through the online shop grew faster than sales to shops.',
  'A competitor closed its nearby factory, and some of its customers came to the company.',
  'Prices for raw materials rose, and the company passed part of the rise on to customers.',
];

const MARKET = [
  'Demand in the region was steady through most of the year, although shops ordered later and in smaller amounts than before.',
  'Wholesale customers continued to ask for shorter delivery times, and the company expects this to shape its plans.',
  'The board has begun to look at a second workshop, but no decision will be taken before the figures for next year are known.',
  'Staff numbers were unchanged over the year, apart from the apprentices, and sickness absence fell.',
  'The company remains without bank debt, and its overdraft was not used at any point in the year.',
];

const CLOSING = [
  'The directors thank every member of staff for their work during the year.',
  'The accounts have been checked by an independent accountant and are available on request.',
  'Shareholders are invited to send questions to the company secretary before the annual meeting.',
  'The directors expect the coming year to bring steady demand, though prices for materials remain uncertain.',
  'No dividend is proposed this year, so that the company can invest in new machinery.',
];

/** `count` different whole numbers from low to high. */
function distinct(d: Draw, count: number, low: number, high: number): number[] {
  const out: number[] = [];
  while (out.length < count) {
    const value = d.int(low, high);
    if (!out.includes(value)) out.push(value);
  }
  return out;
}

/** Values with the largest placed at `top` and the rest in drawn order. */
function withLargestAt(d: Draw, values: number[], top: number): number[] {
  const sorted = [...values].sort((x, y) => y - x);
  const rest = d.some(sorted.slice(1), sorted.length - 1);
  const out: number[] = [];
  for (let at = 0; at < values.length; at += 1)
    out.push(at === top ? (sorted[0] as number) : (rest.shift() as number));
  return out;
}

const money = (thousands: number) => `$${thousands} thousand`;

export function quarterlyReport(d: Draw): GeneratedPassage {
  const company = d.pick(COMPANIES);
  const product = d.pick(PRODUCTS);
  const town = d.pick(TOWNS);
  const year = d.int(2019, 2031);
  let revenue: number[];
  let profit: number[];
  let costs: number[];
  let bestProfit: number;
  let bestRevenue: number;
  // Drawn again until every wrong answer differs from the right one.
  for (;;) {
    bestProfit = d.int(0, 3);
    bestRevenue = (bestProfit + d.int(1, 3)) % 4;
    revenue = withLargestAt(d, distinct(d, 4, 180, 520), bestRevenue);
    profit = withLargestAt(d, distinct(d, 4, 12, 150), bestProfit);
    costs = revenue.map((value, at) => value - (profit[at] as number));
    if (costs[2] !== costs[3]) break;
  }
  const [, r2, r3, r4] = revenue as [number, number, number, number];
  const [c1, , c3, c4] = costs as [number, number, number, number];
  const forecast = r3 + d.pick([-1, 1]) * d.int(15, 60);
  const events = d.some(EVENTS, 12);
  const market = d.some(MARKET, 3);

  const quarter = (at: number): string[] => {
    const name = QUARTERS[at] as string;
    const r = revenue[at] as number;
    const c = costs[at] as number;
    const figures =
      d.int(0, 1) === 0
        ? `In the ${name} quarter, revenue came to ${money(r)} and costs to ${money(c)}.`
        : `Costs for the ${name} quarter were ${money(c)}, against revenue of ${money(r)}.`;
    return [figures, ...events.slice(3 * at, 3 * at + 3)];
  };

  const text = paragraphs(
    [
      `${company}: report to shareholders for ${year}.`,
      `${company} designs and makes ${product} at its workshop in ${town}, and sells them to shops and trade customers.`,
      'This report sets out the year quarter by quarter, as agreed at the last annual meeting, with all figures in US dollars.',
      `At the start of the year the board had forecast third-quarter revenue of ${money(forecast)}.`,
    ],
    quarter(0),
    quarter(1),
    quarter(2),
    quarter(3),
    market,
    d.some(CLOSING, 3),
  );

  const quarterName = (at: number) => `the ${QUARTERS[at]} quarter`;
  return {
    document: 'quarterly report',
    text,
    questions: [
      {
        question: `What was ${company}'s combined revenue in the second and third quarters of ${year}, in thousands of dollars?`,
        answer: String(r2 + r3),
        // The forecast read as the third quarter's revenue.
        wrong_answer: String(r2 + forecast),
      },
      {
        question: `What was ${company}'s profit (revenue minus costs) in the fourth quarter of ${year}, in thousands of dollars?`,
        answer: String(r4 - c4),
        // The third quarter's costs taken for the fourth's.
        wrong_answer: String(r4 - c3),
      },
      {
        question: `In which quarter of ${year} did ${company} make its largest profit (revenue minus costs)?`,
        answer: quarterName(bestProfit),
        // The quarter with the most revenue.
        wrong_answer: quarterName(bestRevenue),
      },
      {
        question: `What were ${company}'s costs in the first and fourth quarters of ${year} together, in thousands of dollars?`,
        answer: String(c1 + c4),
        // The neighbouring quarter's costs.
        wrong_answer: String(c1 + c3),
      },
    ],
  };
}
