/**
 * The name of the tool that tests add to the template's list to stand in for one a user adds. It must never be a
 * name a user would choose: a user's own tool beside it (README's `word_count`, say) would make the test's list
 * define a name twice, and turn `npm test` red for a reason that is the test's, not the user's.
 */
export const STAND_IN_TOOL = 'zz_test_stand_in_for_a_user_tool';
