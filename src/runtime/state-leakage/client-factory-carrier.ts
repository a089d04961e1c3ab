/**
 * A connection or SDK client kept between calls. Isolated calls get a fresh
 * client each, disposed after the call, so no connection state leaks into the next.
 */
import { StateCarrier, StateCarrierError } from './state-carrier.js';
import type { CarrierInstance, InvocationStateRecorder, StateScope } from './state-carrier.js';

interface ClientInstance<Client> extends CarrierInstance {
  client: Client | undefined;
  clientsCreated: number;
}

export interface ClientFactoryHandle<Client> {
  /** The client this invocation may use: created on first use within the instance. */
  get(): Client;
}

export interface ClientFactoryOptions<Client> {
  readonly name: string;
  readonly scope: StateScope;
  readonly create: () => Client;
  /** Closes a client whose instance ends (every isolated call, or a reset). */
  readonly dispose?: (client: Client) => void;
}

export class ClientFactoryCarrier<Client> extends StateCarrier<ClientInstance<Client>, ClientFactoryHandle<Client>> {
  readonly kind = 'client-factory' as const;
  readonly #create: () => Client;
  readonly #dispose: ((client: Client) => void) | undefined;

  constructor(options: ClientFactoryOptions<Client>) {
    super(options);
    if (typeof options.create !== 'function') {
      throw new StateCarrierError(
        'INVALID_CARRIER_OPTIONS',
        `Client factory "${options.name}": \`create\` must be a function returning a client.`,
      );
    }
    this.#create = options.create;
    this.#dispose = options.dispose;
  }

  protected createInstance(instance: string): ClientInstance<Client> {
    return { instance, deltaHistory: [], client: undefined, clientsCreated: 0 };
  }

  protected createHandle(instance: ClientInstance<Client>, recorder: InvocationStateRecorder): ClientFactoryHandle<Client> {
    return {
      get: () => {
        if (instance.client === undefined) {
          instance.client = this.#create();
          instance.clientsCreated += 1;
          recorder.recordChange({
            kind: 'client-created',
            carrier: this.name,
            client: `${instance.instance}/client-${instance.clientsCreated}`,
          });
        }
        return instance.client;
      },
    };
  }

  protected override disposeInstance(instance: ClientInstance<Client>): void {
    if (instance.client !== undefined) this.#dispose?.(instance.client);
    instance.client = undefined;
  }
}
