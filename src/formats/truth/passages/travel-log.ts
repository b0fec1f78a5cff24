/**
 * A traveller's notes: the first arrival dated, every later stay known only from "after N nights in X",
 * and a ticket bought on another day. Questions need the nights added up across paragraphs; the wrong
 * answers take the ticket's date, a neighbouring stay, or forget the last one.
 */
import { type Draw, dateText, daysAfter, drawDay } from '../seeded-draw.js';
import { type GeneratedPassage, paragraphs } from './passage.js';

const TRAVELLERS = ['Marta Quint', 'Oskar Feld', 'Priya Lal', 'Tomas Berg', 'Ines Varga', 'Leo Amsel'];
const TOWNS = [
  'Lyon',
  'Ghent',
  'Porto',
  'Bologna',
  'Krakow',
  'Ljubljana',
  'Salzburg',
  'Bruges',
  'Seville',
  'Tallinn',
];
const TRANSPORT = ['train', 'night bus', 'ferry', 'shared car', 'regional train'];
const SIGHTS = [
  'I spent the first morning walking along the river until my feet gave up.',
  'The old market was busier than any guidebook had warned me.',
  'It rained without stopping, so I read in cafes and wrote letters.',
  'A woman at the guesthouse drew me a map of the quieter streets.',
  'I climbed the hill above the town for the view at sunset.',
  'The museum of local crafts was small, but I stayed until closing.',
  'I met two students from Vienna and we shared dinner twice.',
  'Most evenings I ate at the same small place near the station.',
  'A street festival kept the whole quarter awake until late.',
  'I bought far too many postcards and sent only half of them.',
  'The bakery across the square opened before dawn, and I was often its first customer.',
  'An old man on a bench told me the history of every building I pointed at.',
  'I lost my umbrella on the first afternoon and never replaced it.',
  'The hostel kitchen was crowded, but the cook let me use a corner of the stove.',
  'I found a second-hand bookshop with a shelf of travel diaries much like this one.',
  'I spent a whole afternoon in the botanical garden, mostly asleep on the grass.',
];

export function travelLog(d: Draw): GeneratedPassage {
  const traveller = d.pick(TRAVELLERS);
  const towns = d.some(TOWNS, 4) as [string, string, string, string];
  // Four different stays, so no two sums of them coincide by accident.
  const nights = d.some([2, 3, 4, 5, 6, 7], 4) as [number, number, number, number];
  const firstArrival = drawDay(d);
  const arrivals = [0, 1, 2, 3].map((at) =>
    daysAfter(
      firstArrival,
      nights.slice(0, at).reduce((sum, n) => sum + n, 0),
    ),
  ) as [Date, Date, Date, Date];
  // The ticket onward to the third town, bought on a day of the second stay before the departure.
  const ticket = daysAfter(arrivals[1], d.int(0, nights[1] - 1));
  const transport = d.some(TRANSPORT, 3) as [string, string, string];
  const sights = d.some(SIGHTS, 13);
  // A night of the second or third stay, and where it was spent.
  const stay = d.int(1, 2);
  const night = daysAfter(arrivals[stay] as Date, d.int(0, (nights[stay] as number) - 1));

  const text = paragraphs(
    [
      `Travel notes of ${traveller}.`,
      'I kept these notes in a small blue book, a few lines most evenings, and copied them out when I got home.',
      `I arrived in ${towns[0]} on ${dateText(firstArrival)}, tired but glad to have started.`,
      sights[0] as string,
      sights[1] as string,
      sights[12] as string,
    ],
    [
      `After ${nights[0]} nights in ${towns[0]} I took the ${transport[0]} to ${towns[1]}.`,
      sights[2] as string,
      sights[11] as string,
      `While I was there, on ${dateText(ticket)}, I bought my ticket for the ${transport[1]} to ${towns[2]}.`,
      sights[3] as string,
    ],
    [
      `After ${nights[1]} nights in ${towns[1]} I took the ${transport[1]} to ${towns[2]}.`,
      sights[4] as string,
      sights[5] as string,
      sights[10] as string,
    ],
    [
      `After ${nights[2]} nights in ${towns[2]} I took the ${transport[2]} to ${towns[3]}, the last stop of the trip.`,
      sights[6] as string,
      `I stayed ${nights[3]} nights in ${towns[3]} before flying home.`,
      sights[7] as string,
      sights[8] as string,
    ],
    [
      'Looking back, the trip was shorter than I had hoped and longer than my savings liked.',
      sights[9] as string,
      'Next time I will travel lighter, write more, and stay longer in fewer places.',
      'Still, I would not change the order of the towns, and I would take the same trains again.',
    ],
  );

  const total = nights[0] + nights[1] + nights[2] + nights[3];
  return {
    document: 'travel log',
    text,
    questions: [
      {
        question: `On what date did ${traveller} arrive in ${towns[2]}?`,
        answer: dateText(arrivals[2]),
        // The day the ticket was bought.
        wrong_answer: dateText(ticket),
      },
      {
        question: `How many nights did ${traveller} spend in ${towns[1]} and ${towns[3]} together?`,
        answer: String(nights[1] + nights[3]),
        // The stay in between taken for the last.
        wrong_answer: String(nights[1] + nights[2]),
      },
      {
        question: `In which town did ${traveller} spend the night of ${dateText(night)}?`,
        answer: towns[stay] as string,
        // The town before.
        wrong_answer: towns[stay - 1] as string,
      },
      {
        question: `How many nights did ${traveller}'s whole trip last?`,
        answer: String(total),
        // The last stay, told in another sentence, left out.
        wrong_answer: String(total - nights[3]),
      },
    ],
  };
}
