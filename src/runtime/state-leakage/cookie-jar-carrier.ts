/**
 * The cookie jar: cookies and tokens a tool keeps between calls, with the auth
 * scopes each credential grants. It reports those scopes (`authScopes`), so the
 * ledger can see a credential an earlier call escalated: auth context accumulation.
 */
import { StateCarrier, StateCarrierError } from './state-carrier.js';
import type { AuthScopeSnapshot, CarrierInstance, InvocationStateRecorder, StateScope } from './state-carrier.js';

export interface CredentialInput {
  readonly name: string;
  readonly value: string;
  /** Cookie domain; empty for a bearer token. */
  readonly domain?: string;
  readonly path?: string;
  /** What the credential allows (OAuth scopes, roles). Widening them is what the ledger watches. */
  readonly scopes?: readonly string[];
}

export interface StoredCredential {
  readonly name: string;
  readonly value: string;
  readonly domain: string;
  readonly path: string;
  readonly scopes: readonly string[];
}

interface CookieJarInstance extends CarrierInstance {
  readonly credentials: Map<string, StoredCredential>;
  /** Scopes each credential had when it was created: the baseline when no earlier call saw it. */
  readonly scopesAtCreation: Map<string, readonly string[]>;
}

export interface CookieJarHandle {
  set(credential: CredentialInput): void;
  get(name: string, domain?: string, path?: string): StoredCredential | undefined;
  delete(name: string, domain?: string, path?: string): boolean;
  list(): StoredCredential[];
  /** `Cookie:` header value for a domain (exact or parent domain match). */
  cookieHeader(domain: string): string;
}

/** Credential key as receipts print it: `name@domain/path` (no value: values are secrets). */
export function credentialKey(name: string, domain = '', path = '/'): string {
  return `${name}@${domain}${path}`;
}

function normaliseScopes(scopes: readonly string[] | undefined): string[] {
  return [...new Set(scopes ?? [])].sort();
}

export class CookieJarCarrier extends StateCarrier<CookieJarInstance, CookieJarHandle> {
  readonly kind = 'cookie-jar' as const;

  constructor(options: { name: string; scope: StateScope }) {
    super(options);
  }

  /** Scopes of every credential the instance holds, by credential key: the auth-scope snapshot. */
  authScopes(instance: CarrierInstance): AuthScopeSnapshot {
    const jar = instance as CookieJarInstance;
    const current: Record<string, readonly string[]> = {};
    const atCreation: Record<string, readonly string[]> = {};
    for (const [key, credential] of jar.credentials) {
      current[key] = credential.scopes;
      atCreation[key] = jar.scopesAtCreation.get(key) ?? credential.scopes;
    }
    return { current, atCreation };
  }

  protected createInstance(instance: string): CookieJarInstance {
    return { instance, deltaHistory: [], credentials: new Map(), scopesAtCreation: new Map() };
  }

  protected createHandle(instance: CookieJarInstance, recorder: InvocationStateRecorder): CookieJarHandle {
    const carrier = this.name;
    return {
      set(input) {
        if (typeof input.name !== 'string' || input.name === '' || typeof input.value !== 'string') {
          throw new StateCarrierError(
            'INVALID_CARRIER_OPTIONS',
            `Cookie jar "${carrier}": a credential needs a non-empty name and a string value.`,
          );
        }
        const stored: StoredCredential = {
          name: input.name,
          value: input.value,
          domain: input.domain ?? '',
          path: input.path ?? '/',
          scopes: normaliseScopes(input.scopes),
        };
        const key = credentialKey(stored.name, stored.domain, stored.path);
        const previous = instance.credentials.get(key);
        instance.credentials.set(key, stored);
        if (previous === undefined) instance.scopesAtCreation.set(key, stored.scopes);
        const previousScopes = previous === undefined ? null : previous.scopes;
        recorder.recordChange({
          kind: 'cookie-set',
          carrier,
          credential: key,
          scopes: stored.scopes,
          previousScopes,
          widened: previousScopes !== null && stored.scopes.some((scope) => !previousScopes.includes(scope)),
        });
      },
      get(name, domain = '', path = '/') {
        return instance.credentials.get(credentialKey(name, domain, path));
      },
      delete(name, domain = '', path = '/') {
        const key = credentialKey(name, domain, path);
        const existed = instance.credentials.delete(key);
        instance.scopesAtCreation.delete(key);
        if (existed) recorder.recordChange({ kind: 'cookie-deleted', carrier, credential: key });
        return existed;
      },
      list() {
        return [...instance.credentials.values()];
      },
      cookieHeader(domain) {
        return [...instance.credentials.values()]
          .filter((credential) => credential.domain !== '' && (domain === credential.domain || domain.endsWith(`.${credential.domain}`)))
          .map((credential) => `${credential.name}=${credential.value}`)
          .join('; ');
      },
    };
  }
}
