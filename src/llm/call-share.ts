/**
 * One debate's share of hosts that several debates use at once. A debate on its own may send
 * several calls together (the knockout's judges, the critique's experts) so that they fill the
 * server's parallel slots and decode in one batch; with other debates beside it, the slots are
 * already filled by them, and a debate's second and third call at once only take slots whose
 * prompt caches hold the other debates' conversations. So each debate in a batch sends at most
 * its share of the calls the hosts take at once (decision 023); the calls wait here, in the
 * order they were made, before they reach the hosts' gate.
 */
import { Limiter } from './limited-provider.js';
import type { ModelProvider } from './provider.js';

/**
 * Calls one of `debates` debates running at once may have in flight on hosts that take `capacity`
 * (`--parallel`, set to the server's parallel slots), or undefined for no limit of its own. With
 * fewer slots than debates the debates share slots whatever each sends, and a debate's calls sent
 * together let the hosts' gate run them one after another on the slot that holds their prompt
 * (call-gate.ts), so they are not held back.
 */
export function callShare(capacity: number, debates: number): number | undefined {
  if (capacity < debates) return undefined;
  return Math.floor(capacity / Math.max(1, debates));
}

/** `provider` with at most `limit` chats in flight; everything else passes straight through. */
export function withCallShare(provider: ModelProvider, limit: number): ModelProvider {
  const limiter = new Limiter(limit);
  const shared: ModelProvider = {
    host: provider.host,
    chat: (request, options) => limiter.run(() => provider.chat(request, options)),
    listModels: (options) => provider.listModels(options),
    version: (options) => provider.version(options),
  };
  if (provider.contextWindow) shared.contextWindow = provider.contextWindow.bind(provider);
  if (provider.countTokens) shared.countTokens = provider.countTokens.bind(provider);
  if (provider.slots) shared.slots = provider.slots.bind(provider);
  if (provider.servesAnyModel) shared.servesAnyModel = provider.servesAnyModel.bind(provider);
  if (provider.load) shared.load = provider.load.bind(provider);
  return shared;
}
