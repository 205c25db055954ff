// The registry undo's helpers: src/policy/undo.ts, and the list edits and slugs of tools/registry/_write.ts
// and tools/registry/_slug.ts.
import t from 'tap'
import { CREATED_ID, createdId, withCreatedId } from '../../../src/policy/undo.ts'
import { applyListEdit } from '../../../tools/registry/_write.ts'
import { slugLike } from '../../../tools/registry/_slug.ts'

t.test('label and alias edits: signs add and remove, a plain list replaces', async t => {
  t.same(applyListEdit(['a', 'b'], ['+c', '-a']), ['b', 'c'])
  t.same(applyListEdit(['a', 'b'], ['c', 'c']), ['c'], 'no sign: the list is replaced, deduplicated')
  t.same(applyListEdit(['a'], ['+a']), ['a'], 'adding what is there changes nothing')
  t.same(applyListEdit([], ['-x']), [], 'removing what is not there changes nothing')
})

t.test('a recreated entry\'s id reaches the relinking commands at any depth', async t => {
  const command = { type: 'config/entity_registry/update', entity_id: 'light.a', labels: ['x', CREATED_ID], categories: { automation: CREATED_ID } }
  t.same(withCreatedId(command, 'new_id'), { type: 'config/entity_registry/update', entity_id: 'light.a', labels: ['x', 'new_id'], categories: { automation: 'new_id' } })
  t.equal(withCreatedId(command, undefined), command, 'nothing created: left as is')
  t.equal(createdId({ label_id: 'tidy', name: 'Tidy' }), 'tidy')
  t.equal(createdId({ id: 'school', name: 'School' }), 'school', 'zones answer with id')
  t.equal(createdId(null), undefined)
})

t.test('ids from names as Home Assistant makes them', async t => {
  t.equal(slugLike('Salle à manger'), 'salle_a_manger')
  t.equal(slugLike('  Garden Shed! '), 'garden_shed')
  t.equal(slugLike('!!!'), 'unknown')
})
