/**
 * Agora's mock Ollama: a real HTTP server speaking the Ollama API, with deterministic debate
 * answers, scripted faults, and a simulated cost model (loads, slots, prompt cache).
 */

export { type BusyWork, busyFloorSeconds } from './busy-floor.js';
export { type CassetteCall, CassetteError, loadCassette } from './cassette-format.js';
export { requestDifference } from './cassette-match.js';
export type { CassetteOptions } from './cassette-player.js';
export { CassetteRecorder } from './cassette-recorder.js';
export { DEFAULT_MODELS, normalizeModelName } from './catalog.js';
export { applyTemplate, chatTemplate, TEMPLATE_NAMES, type TemplateName } from './chat-templates.js';
export { jsonFromSchema } from './json-from-schema.js';
export { type CostProfile, PROFILES, type ProfileName, resolveProfile } from './profiles.js';
export type { SpeechLength } from './prose.js';
export { SCRIPT_FAULTS, type ScriptFault, type ScriptMatch, type ScriptRule } from './script.js';
export {
  loadMockScript,
  loadMockScriptFile,
  type MockScript,
  MockScriptError,
  type MockScriptIssue,
  parseMockScript,
  parseMockScriptFile,
} from './script-file.js';
export { startMockOllama } from './server.js';
export type { OpenAiSettings, ServerSettings } from './server-settings.js';
export type { MockModelStats, MockStats } from './stats.js';
export { TemplateChoice, templateNameFor } from './template-choice.js';
export { countTokens, tokenize, tokenizerOf, VOCABULARIES, type VocabularyName } from './tokens.js';
export type { MockOllama, MockOllamaOptions, RecordedRequest } from './types.js';
