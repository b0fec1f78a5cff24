/**
 * Sentences that introduce the speaker or greet the room ("Good evening", "I am Dr. Okafor, and I
 * will argue...", "It is an honour to...") rather than make a point. Small models open most
 * statements with one; memory's key points, the heuristic claims and the argument map leave them out.
 */

const GREETING =
  /^(?:good (?:morning|afternoon|evening|day)|hello|hi|greetings|welcome|thank you|thanks|ladies and gentlemen|dear|esteemed|honou?red|respected|madam|mister|mr\.? chair|chair)\b/i;
const SELF_INTRODUCTION =
  /^(?:(?:I am|I'm|I’m|My name is|Speaking as|Arguing as)\s+\p{Lu}\p{Ll}*(?:\s+\p{Lu}\p{Ll}*)*\s*(?:,|and\b|here\b|\.)|(?:I am|I'm|I’m|My name is)\s+\p{Lu}|(?:I am|I'm|I’m)\s+(?:the\s+)?(?:affirmative|negative|proposition|opposition|first|second|opening|closing)\s+speaker\b)/u;
const PLEASURE = /\b(?:it is|it's|what) (?:an? |my )?(?:honou?r|pleasure|privilege)\b/i;
/** "I will argue", "I'm here to argue", "I stand here to defend": a speaker announcing, not claiming. */
const ANNOUNCEMENT =
  /^(?:today,?\s+)?(?:i|we)\s+(?:will|shall|want to|would like to|intend to|am going to|are going to|am here to|are here to|stand here to|rise to)\s+(?:argue|defend|oppose|propose|speak|make the case|present|show)\b(?![^.!?]*\b(?:that|because)\b)[^.!?]{0,60}[.!?]?$/i;

/** Whether a sentence introduces its speaker or greets the room rather than claiming something. */
export function isIntroduction(sentence: string): boolean {
  const text = sentence.trim();
  return (
    GREETING.test(text) || SELF_INTRODUCTION.test(text) || PLEASURE.test(text) || ANNOUNCEMENT.test(text)
  );
}
