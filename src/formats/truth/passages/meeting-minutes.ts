/**
 * A committee's minutes over two meetings: an item proposed and deferred at the first, approved at the
 * second under another chair, and announced some days later. The wrong answers are the announcement's
 * date for the decision's, the seconder (named first) for the proposer, the first meeting's chair.
 */
import { type Draw, dateText, daysAfter, drawDay } from '../seeded-draw.js';
import { type GeneratedPassage, paragraphs } from './passage.js';

const BODIES = [
  'the Harbour Street Library committee',
  'the Millbrook Allotment Society',
  "the Northside Tenants' Association",
  'the Riverside Choir board',
  "the Elm Road School parents' council",
  'the Kestrel Lane Community Hall trustees',
];
const NAMES = [
  'Alma Reyes',
  'Bruno Castell',
  'Clara Nyberg',
  'Dmitri Havel',
  'Edith Moreau',
  'Felix Agarwal',
  'Greta Lindholm',
  'Hugo Brennan',
  'Iris Okonjo',
  'Jonas Petrov',
];
const ITEMS = [
  'moving the book sale to the spring',
  'repairing the roof of the tool shed',
  'a new rota for Saturday opening',
  'buying a second-hand piano',
  'a summer reading programme for children',
  'new lighting for the car park',
  'a shared compost scheme',
  'opening the hall to a weekly repair cafe',
];
const FIRST_ITEM_NOTES = [
  'The treasurer confirmed that the reserves could cover it.',
  'Members agreed that it should be reviewed after six months.',
  'Two members asked that the cost be shown separately in the accounts.',
];
const DEFERRAL_NOTES = [
  'Members asked for quotes from two suppliers before deciding, and the decision was deferred to the next meeting.',
  'Several members wanted to hear from the neighbours first, so the decision was deferred to the next meeting.',
  'As the costs were not yet known, the decision was deferred to the next meeting.',
];
const TREASURER = [
  'The treasurer reported that the accounts were in good order and that the bank balance had risen since the last meeting.',
  'Income from the spring fair had been higher than expected, mainly thanks to the cake stall.',
  'Insurance for the building has been renewed at a slightly higher premium than last year.',
  'Two members have not yet paid their subscriptions, and the secretary will write to them.',
  'The treasurer asked that receipts for small purchases be handed in within a month.',
];
const CORRESPONDENCE = [
  'The secretary read a letter from the council about changes to the waste collection days.',
  'A local business has offered to print the newsletter free of charge for the coming year.',
  'An invitation had arrived for the open day at the neighbouring community garden.',
  'The committee received a request to use the room for a weekly language class, which will be discussed later.',
];
const OTHER_BUSINESS = [
  'Under any other business, members thanked the volunteers who had cleared the garden.',
  'The secretary reminded members that subscriptions are due at the end of the month.',
  'A member raised the state of the noticeboard, which will be replaced.',
  'The meeting noted a letter of thanks from a local school.',
  'It was agreed to keep the minutes on the website for a year.',
];

export function meetingMinutes(d: Draw): GeneratedPassage {
  const body = d.pick(BODIES);
  const [proposer, seconder, firstChair, secondChair, announcer, firstItemLead, absent] = d.some(
    NAMES,
    7,
  ) as [string, string, string, string, string, string, string];
  const [item, firstItem] = d.some(ITEMS, 2) as [string, string];
  const firstMeeting = drawDay(d);
  const gap = d.int(14, 42);
  const secondMeeting = daysAfter(firstMeeting, gap);
  const announced = daysAfter(secondMeeting, d.int(2, 10));
  const votesFor = d.int(6, 11);
  const votesAgainst = d.int(1, 4);
  const present = [firstChair, proposer, seconder, firstItemLead, announcer].sort();
  const other = d.some(OTHER_BUSINESS, 2);
  const treasurer = d.some(TREASURER, 3);
  const letters = d.some(CORRESPONDENCE, 2);

  const text = paragraphs(
    [
      `Minutes of ${body}.`,
      `The committee met on ${dateText(firstMeeting)} in the back room, with ${firstChair} in the chair.`,
      `Present were ${present.slice(0, -1).join(', ')} and ${present.at(-1)}. Apologies were received from ${absent}.`,
      'The minutes of the previous meeting were read and approved without changes.',
    ],
    ["Treasurer's report.", ...treasurer],
    ['Correspondence.', ...letters],
    [
      `The first item was ${firstItem}. ${firstItemLead} presented the costs, and the committee approved it without a vote.`,
      d.pick(FIRST_ITEM_NOTES),
    ],
    [
      `${seconder} seconded a motion from ${proposer} on ${item}.`,
      `${proposer} explained that the idea had come from several members over the winter.`,
      d.pick(DEFERRAL_NOTES),
      other[0] as string,
    ],
    [
      `The committee met again on ${dateText(secondMeeting)}. As ${firstChair} was away, ${secondChair} took the chair.`,
      `After a short discussion the committee approved ${item}, by ${votesFor} votes to ${votesAgainst}.`,
      other[1] as string,
    ],
    [
      `${announcer} announced the decision in the newsletter on ${dateText(announced)}, and thanked everyone who had written in.`,
      'The next meeting will be held at the usual time, and members are asked to send agenda items to the secretary in advance.',
    ],
  );

  return {
    document: 'meeting minutes',
    text,
    questions: [
      {
        question: `On what date did ${body} approve ${item}?`,
        answer: dateText(secondMeeting),
        // The newsletter's date.
        wrong_answer: dateText(announced),
      },
      {
        question: `Who proposed ${item} to ${body}?`,
        answer: proposer,
        // The seconder, named first.
        wrong_answer: seconder,
      },
      {
        question: `Who chaired the meeting at which ${body} approved ${item}?`,
        answer: secondChair,
        // The first meeting's chair.
        wrong_answer: firstChair,
      },
      {
        question: `How many days passed between the meeting that deferred ${item} and the meeting that approved it?`,
        answer: String(gap),
        // Counted to the newsletter instead.
        wrong_answer: String(Math.round((announced.getTime() - firstMeeting.getTime()) / 86_400_000)),
      },
    ],
  };
}
