import { describe, expect, it } from 'vitest';
import { activeLine, expectRejection, newCarrier, physicalSim, tx } from './helpers.js';

describe('child lines', () => {
  it('adds an active line under an active parent and removes it again', async () => {
    const core = newCarrier();
    const parent = await activeLine(core);
    const child = await activeLine(core);
    const request = { parentMdn: parent.mdn, parentSim: parent.sim, childMdn: child.mdn, childSim: child.sim };
    await expect(core.addChildLine({ ...request, transactionId: tx() })).resolves.toBeUndefined();
    const account = await core.extended!.getAccount(child.mdn);
    expect(account).toMatchObject({ accountId: 'ACCT00000001', mdn: child.mdn });
    expect(account.lines.map((line) => line.mdn)).toEqual([parent.mdn, child.mdn]);

    await expect(core.removeChildLine({ ...request, transactionId: tx() })).resolves.toBeUndefined();
    expect((await core.extended!.getAccount(child.mdn)).accountId).toBe('ACCT00000002');
    await expectRejection(core.removeChildLine({ ...request, transactionId: tx() }), '918');
  });

  it('refuses duplicates and nesting (GENS-0010)', async () => {
    const core = newCarrier();
    const parent = await activeLine(core);
    const otherParent = await activeLine(core);
    const child = await activeLine(core);
    const add = (parentLine: { mdn: string; sim: string }, childMdn: string) =>
      core.addChildLine({ transactionId: tx(), parentMdn: parentLine.mdn, parentSim: parentLine.sim, childMdn });
    await add(parent, child.mdn);
    await expectRejection(
      add(parent, child.mdn),
      'GENS-0010',
      'Duplicate products: the line is already a child line of this account',
    );
    await expectRejection(
      add(otherParent, child.mdn),
      'GENS-0010',
      'Duplicate products: the line is already a child line of another account',
    );
    await expectRejection(add(parent, parent.mdn), 'GENS-0010');
    await expectRejection(add(child, otherParent.mdn), 'GENS-0010');
    await expectRejection(add(otherParent, parent.mdn), 'GENS-0010');
  });

  it('needs both lines active (915), known (918) and their SIMs right (918)', async () => {
    const core = newCarrier();
    const parent = await activeLine(core);
    const child = await activeLine(core);
    const base = { parentMdn: parent.mdn, parentSim: parent.sim, childMdn: child.mdn };
    await expectRejection(core.addChildLine({ ...base, transactionId: tx(), parentSim: physicalSim() }), '918');
    await expectRejection(core.addChildLine({ ...base, transactionId: tx(), childSim: physicalSim() }), '918');
    await expectRejection(core.addChildLine({ ...base, transactionId: tx(), childMdn: '3215558888' }), '918');
    await expectRejection(core.addChildLine({ ...base, transactionId: tx(), childMdn: '9095558888' }), '909');
    await core.suspend({ transactionId: tx(), mdn: parent.mdn });
    await expectRejection(core.addChildLine({ ...base, transactionId: tx() }), '915');
    await core.restore({ transactionId: tx(), mdn: parent.mdn });
    await core.disconnect({ transactionId: tx(), mdn: child.mdn, sim: child.sim });
    await expectRejection(core.addChildLine({ ...base, transactionId: tx() }), '915');
  });

  it('releases the children when the parent is disconnected', async () => {
    const core = newCarrier();
    const parent = await activeLine(core);
    const child = await activeLine(core);
    await core.addChildLine({ transactionId: tx(), parentMdn: parent.mdn, parentSim: parent.sim, childMdn: child.mdn });
    await core.disconnect({ transactionId: tx(), mdn: parent.mdn, sim: parent.sim });
    const account = await core.extended!.getAccount(child.mdn);
    expect(account.lines.map((line) => line.mdn)).toEqual([child.mdn]);
  });
});
