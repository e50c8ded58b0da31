/** stateless.js checks of the proof methods: account proofs, new address proofs, validity proofs. */
import {
  type CompressedAccountWithMerkleContext,
  DerivationMode,
  LIGHT_TOKEN_PROGRAM_ID,
  addressQueue,
  bn,
  deriveAddressV2,
} from "@lightprotocol/stateless.js";
import { expect } from "vitest";
import type { AccountRecord } from "../../../reference/records.js";
import { base58OfField, fieldOf } from "../stateless/expected.js";
import { expectAccountProof, expectNewAddressProofs, expectValidityProof } from "../stateless/proofs.js";
import { answerValue, traced } from "../stateless/wire.js";
import {
  accountSamples,
  addressTreeV1,
  addressTreeV2,
  bnOf,
  type Check,
  dataset,
  keyOf,
  methodsOf,
  only,
  profile,
  roots,
  rpc,
  unspentIn,
  view,
} from "./context.js";

export const proofChecks: Readonly<Record<string, Check>> = {
  getCompressedAccountProof: {
    run: async () => {
      const { inTree, queued } = accountSamples();
      for (const record of [...inTree, queued]) {
        const { value, exchanges } = await traced(() => rpc.getCompressedAccountProof(bnOf(record.hash)));
        const e = only(exchanges);
        expect([e.method, e.params]).toEqual(["getCompressedAccountProofV2", { hash: record.hash }]);
        expectAccountProof(view, roots, value, answerValue(e), record, "single");
      }
      await expect(rpc.getCompressedAccountProof(bnOf(profile.unknownHash))).rejects.toThrow();
    },
  },

  getMultipleCompressedAccountProofs: {
    run: async () => {
      // One call per tree height: Photon proves a whole batch at its first tree's height (leaf_node_proof.rs).
      const { queued } = accountSamples();
      for (const records of [unspentIn("StateV1", 6), [...unspentIn("StateV2", 4), queued]]) {
        const hashes = records.map((r) => r.hash);
        const { value, exchanges } = await traced(() => rpc.getMultipleCompressedAccountProofs(hashes.map(bnOf)));
        const e = only(exchanges);
        // Positional params: the hash list itself (photon HashList).
        expect([e.method, e.params]).toEqual(["getMultipleCompressedAccountProofsV2", hashes]);
        const raw = answerValue(e) as unknown[];
        expect(value).toHaveLength(records.length);
        records.forEach((record, i) => expectAccountProof(view, roots, value[i] as (typeof value)[number], raw[i], record, "multiple"));
      }
    },
    timeout: 60_000,
  },

  getMultipleNewAddressProofs: {
    run: async () => {
      const tree = addressTreeV1();
      expect([tree.type, tree.queue]).toEqual(["AddressV1", addressQueue]);
      const addresses = view.newAddresses(tree.tree);
      expect(addresses.length).toBeGreaterThanOrEqual(2);
      const { value, exchanges } = await traced(() => rpc.getMultipleNewAddressProofs(addresses.map((a) => bn(a.toString()))));
      const e = only(exchanges);
      // Positional params: the address list itself, no tree (Photon uses ADDRESS_TREE_V1).
      expect([e.method, e.params]).toEqual(["getMultipleNewAddressProofs", addresses.map(base58OfField)]);
      expectNewAddressProofs(view, roots, value, answerValue(e) as unknown[], addresses, tree);
    },
  },

  getValidityProof: {
    run: async () => {
      // Deprecated: looks the accounts up first, then asks for a proof with new addresses in the V1 address tree.
      const accounts = unspentIn("StateV1", 2);
      const tree = addressTreeV1();
      const address = view.newAddresses(tree.tree)[0] as bigint;
      const { value, exchanges } = await traced(() =>
        rpc.getValidityProof(
          accounts.map((a) => bnOf(a.hash)),
          [bn(address.toString())],
        ),
      );
      expect(methodsOf(exchanges)).toEqual(["getMultipleCompressedAccountsV2", "getValidityProofV2"]);
      expect(exchanges[1]?.params).toEqual({
        hashes: accounts.map((a) => a.hash),
        newAddressesWithTrees: [{ address: base58OfField(address), tree: tree.tree }],
      });
      expectValidityProof(view, roots, value, accounts, [{ address, tree }]);

      // New addresses only: the account lookup still goes out, with no hashes.
      const second = view.newAddresses(tree.tree)[1] as bigint;
      const { value: addressOnly, exchanges: ax } = await traced(() => rpc.getValidityProof([], [bn(address.toString()), bn(second.toString())]));
      expect(ax.map((e) => [e.method, e.params])).toEqual([
        ["getMultipleCompressedAccountsV2", { hashes: [] }],
        ["getValidityProofV2", { hashes: [], newAddressesWithTrees: [address, second].map((a) => ({ address: base58OfField(a), tree: tree.tree })) }],
      ]);
      expectValidityProof(
        view,
        roots,
        addressOnly,
        [],
        [
          { address, tree },
          { address: second, tree },
        ],
      );
    },
  },

  getValidityProofV0: {
    run: async () => {
      // Batched accounts in their trees plus a new address of the V2 address tree.
      const accounts = unspentIn("StateV2", 2);
      const tree = addressTreeV2();
      const address = view.newAddresses(tree.tree)[0] as bigint;
      const hashes = accounts.map((a) => ({ hash: bnOf(a.hash), tree: keyOf(a.tree), queue: keyOf(view.treeOf(a).queue) }));
      const { value, exchanges } = await traced(() =>
        rpc.getValidityProofV0(hashes, [{ address: bn(address.toString()), tree: keyOf(tree.tree), queue: keyOf(tree.queue) }]),
      );
      const e = only(exchanges);
      expect([e.method, e.params]).toEqual([
        "getValidityProofV2",
        { hashes: accounts.map((a) => a.hash), newAddressesWithTrees: [{ address: base58OfField(address), tree: tree.tree }] },
      ]);
      expectValidityProof(view, roots, value, accounts, [{ address, tree }]);

      // Only accounts in an output queue: proven by index, no Groth16 proof.
      const { queued } = accountSamples();
      const byIndex = await rpc.getValidityProofV0([{ hash: bnOf(queued.hash), tree: keyOf(queued.tree), queue: keyOf(view.treeOf(queued).queue) }]);
      expectValidityProof(view, roots, byIndex, [queued], []);

      // State trees of different heights in one proof: Photon refuses (prover/prove.rs: "All state trees … same height").
      const mixed = [unspentIn("StateV1", 1)[0], accounts[0]] as AccountRecord[];
      await expect(
        rpc.getValidityProofV0(mixed.map((a) => ({ hash: bnOf(a.hash), tree: keyOf(a.tree), queue: keyOf(view.treeOf(a).queue) }))),
      ).rejects.toThrow();
    },
  },

  getValidityProofV2: {
    run: async () => {
      // Merkle contexts as getCompressedAccount returns them (batched trees: a V2 address goes with V2
      // state, the prover has no circuit mixing heights 26 and 40), and V2 addresses: derived from a
      // seed (the default mode, with the light-token program) or given as they are (standard).
      const accounts = unspentIn("StateV2", 2);
      const contexts: CompressedAccountWithMerkleContext[] = [];
      for (const a of accounts) contexts.push((await rpc.getCompressedAccount(undefined, bnOf(a.hash))) as CompressedAccountWithMerkleContext);
      const treeInfo = await rpc.getAddressTreeInfoV2();
      const tree = addressTreeV2();
      const seed = Buffer.alloc(32, 0);
      seed.write("stateless-client.test", "utf8");
      const derived = fieldOf(deriveAddressV2(seed, treeInfo.tree, LIGHT_TOKEN_PROGRAM_ID).toBase58());
      const derivedProof = await traced(() => rpc.getValidityProofV2(contexts, [{ address: seed, treeInfo }]));
      expect(only(derivedProof.exchanges).params).toEqual({
        hashes: accounts.map((a) => a.hash),
        newAddressesWithTrees: [{ address: base58OfField(derived), tree: tree.tree }],
      });
      expectValidityProof(view, roots, derivedProof.value, accounts, [{ address: derived, tree }]);

      const plain = view.newAddresses(tree.tree)[0] as bigint;
      const standard = await rpc.getValidityProofV2(
        contexts,
        [{ address: Buffer.from(plain.toString(16).padStart(64, "0"), "hex"), treeInfo }],
        DerivationMode.standard,
      );
      expectValidityProof(view, roots, standard, accounts, [{ address: plain, tree }]);
    },
  },

  getValidityProofAndRpcContext: {
    run: async () => {
      const accounts = unspentIn("StateV1", 4);
      const { value, exchanges } = await traced(() =>
        rpc.getValidityProofAndRpcContext(accounts.map((a) => ({ hash: bnOf(a.hash), tree: keyOf(a.tree), queue: keyOf(view.treeOf(a).queue) }))),
      );
      expect([only(exchanges).method, only(exchanges).params]).toEqual([
        "getValidityProofV2",
        { hashes: accounts.map((a) => a.hash), newAddressesWithTrees: [] },
      ]);
      expect(value.context.slot).toBe(dataset.slot);
      expectValidityProof(view, roots, value.value, accounts, []);
    },
  },
};
