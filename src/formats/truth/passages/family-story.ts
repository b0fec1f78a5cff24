/**
 * A short story whose family relations, ages, trades and motives are stated in different paragraphs.
 * Questions combine two of them (whose aunt, what the uncle does); the wrong answers are the person or
 * the trade named just before, or another character's motive.
 */
import type { Draw } from '../seeded-draw.js';
import { type GeneratedPassage, paragraphs } from './passage.js';

const MEN = ['Tomas', 'Anselm', 'Ruben', 'Matteo', 'Henrik', 'Casimir', 'Emil', 'Jasper'];
const WOMEN = ['Mara', 'Lena', 'Sofia', 'Agnes', 'Rosa', 'Vera', 'Ilse', 'Nora', 'Beatrix'];
const SURNAMES = ['Holm', 'Varga', 'Lindqvist', 'Moreno', 'Castellan', 'Brandt'];
const VILLAGES = ['Eskdale', 'Westerby', 'Hollin Cross', 'Marrowby', 'Kilnsey'];
const BUSINESSES = ['the mill', 'the bakery', 'the ferry', 'the forge', 'the inn'];
const TRADES = [
  'carpenter',
  'nurse',
  'bookbinder',
  "ship's engineer",
  'schoolteacher',
  'surveyor',
  'glassblower',
  'pharmacist',
];
const REASONS = [
  'to look after her ailing mother',
  'because the factory in the city had closed',
  'to sell the family house',
  'because she had inherited the orchard',
  'to open a workshop of her own',
  'because the doctor had ordered country air',
];
const SCENES = [
  'That spring the river rose higher than anyone could remember.',
  'The village still talked about the winter the ferry froze in.',
  'On market days the square filled with carts from the farms up the valley.',
  'Letters came twice a week, carried up from the station by the postman.',
  'In the evenings the family gathered in the kitchen, the only warm room.',
  'Nobody in the village owned a car, and few wanted one.',
  'The church bell was rung by hand, and never quite on the hour.',
  'In June the hay was cut on the slopes, and everyone who could hold a rake was expected to help.',
  'The school had a single classroom, heated by a stove that smoked whenever the wind came from the east.',
  'A travelling cinema came once a month and showed its films on a sheet in the barn.',
  'The road over the pass was closed for most of the winter, and the village kept to itself.',
  'Old quarrels were remembered for generations, and most of them were about water.',
];
const MOMENTS = [
  'At supper there was talk of the harvest, of prices at the market, and of who had been seen walking out with whom.',
  'The house smelled of woodsmoke and apples, and the floorboards announced everyone who crossed the landing.',
  'On Sundays the family walked to the chapel on the hill, and came back the long way round by the river.',
  'Visitors were rare, and each one was discussed for weeks after they had gone.',
  'There were photographs on the dresser of people nobody could quite name any more.',
];

export function familyStory(d: Draw): GeneratedPassage {
  const [father, uncle] = d.some(MEN, 2) as [string, string];
  const [mother, daughter, aunt, neighbour] = d.some(WOMEN, 4) as [string, string, string, string];
  const surname = d.pick(SURNAMES);
  const village = d.pick(VILLAGES);
  const business = d.pick(BUSINESSES);
  const [auntTrade, uncleTrade, neighbourTrade] = d.some(TRADES, 3) as [string, string, string];
  const [auntReason, neighbourReason] = d.some(REASONS, 2) as [string, string];
  const daughterAge = d.int(9, 16);
  const auntAge = daughterAge + d.int(18, 30);
  // The uncle is the younger sibling, and never the aunt's age.
  const uncleAge = auntAge - d.int(2, 9);
  const scenes = d.some(SCENES, 5);
  const moments = d.some(MOMENTS, 3);

  const text = paragraphs(
    [
      `${father} ${surname} kept ${business} at the edge of ${village}, as his father had before him.`,
      `His wife, ${mother}, ran the house and the accounts, and knew every customer by name.`,
      scenes[0] as string,
      'The business was never large, but it was steady, and in good years it paid for a new roof or a second horse.',
      'Customers came from three villages around, and some of them stayed to talk long after their errands were done.',
    ],
    [
      `Their daughter ${daughter}, then ${daughterAge}, spent her afternoons on the riverbank with a sketchbook.`,
      `She was curious about everything, and especially about the relatives she had hardly met.`,
      moments[0] as string,
      moments[1] as string,
    ],
    [
      `${father}'s sister, ${aunt}, had left ${village} long ago and worked in the city as a ${auntTrade}.`,
      `She was ${auntAge} that spring when she came back ${auntReason}.`,
      scenes[1] as string,
    ],
    [
      `${uncle}, the younger of ${father}'s two siblings, had never left at all.`,
      `He was ${uncleAge}, lived above the post office and earned his living as a ${uncleTrade}.`,
      scenes[3] as string,
      moments[2] as string,
    ],
    [
      `Next door lived ${neighbour}, a ${neighbourTrade}, who had come to ${village} ${neighbourReason}.`,
      scenes[2] as string,
      scenes[4] as string,
      `By the end of the summer ${daughter} had filled three sketchbooks with the people of ${village}.`,
    ],
  );

  return {
    document: 'story',
    text,
    questions: [
      {
        question: `What is the name of ${daughter}'s aunt?`,
        answer: aunt,
        // The woman named just before her: the mother.
        wrong_answer: mother,
      },
      {
        question: `What does ${daughter}'s uncle do for a living?`,
        answer: uncleTrade,
        // The trade of the sibling named just before.
        wrong_answer: auntTrade,
      },
      {
        question: `Why did ${aunt} come back to ${village}?`,
        answer: auntReason,
        // The neighbour's reason for coming.
        wrong_answer: neighbourReason,
      },
      {
        question: `How many years older than ${daughter} is her uncle?`,
        answer: String(uncleAge - daughterAge),
        // The aunt's age read for the uncle's.
        wrong_answer: String(auntAge - daughterAge),
      },
    ],
  };
}
