/* ptx_grammar.y: the PTX grammar. Actions call the builder (ptx_build.c), which lowers
 * straight into the IR; the grammar itself only knows the shape of the text. */
%define api.pure full
%define api.prefix {ptx_yy}
%define parse.error detailed
%locations
%param {void *scanner}
%parse-param {ptx_builder *B}

%code requires {
#include "frontend/ptx_parser.h"
}

%code {
/* bison's stack, when it grows, comes from the allocator a parse can unwind (ptx_oom.c). */
#define YYMALLOC ptx_yy_alloc
#define YYFREE ptx_yy_free
int ptx_yylex(PTX_YYSTYPE *lval, PTX_YYLTYPE *lloc, void *scanner);
static void ptx_yyerror(PTX_YYLTYPE *loc, void *scanner, ptx_builder *B, const char *msg)
{
    (void)scanner;
    ptx_b_error(B, (uint32_t)loc->first_line, (uint32_t)loc->first_column, "%s", msg);
}
#define L(loc) (uint32_t)(loc).first_line, (uint32_t)(loc).first_column
#define CHECK_ABORT() do { if (ptx_b_too_many_errors(B)) YYABORT; } while (0)
}

%union {
    ptx_str str;
    ptx_numlit num;
    ptx_cval cval;
    uint64_t bits;
    int ival;
    int64_t sval;
    int node;
    ptx_node_list list;
}

%token <str> WORD "identifier" REGNAME "register" STRING "string" DECFLOAT "float literal"
%token <num> INTLIT "integer literal"
%token <bits> F32LIT "0f literal" F64LIT "0d literal"
%token <ival> TYPE "type" SPACE "state space" VECSPEC "vector width" LINKAGE "linkage directive"
%token <str> D_PERF "performance directive" D_ATTRNAME "attribute name"
%token D_VERSION ".version" D_TARGET ".target" D_ADDRESS_SIZE ".address_size" D_ENTRY ".entry"
%token D_FUNC ".func" D_ALIGN ".align" D_PTR ".ptr" D_PRAGMA ".pragma" D_ALIAS ".alias"
%token D_ATTRIBUTE ".attribute" D_CALLPROTOTYPE ".callprototype" D_CALLTARGETS ".calltargets"
%token D_BRANCHTARGETS ".branchtargets" SINK "_"
%token SHL "<<" SHR ">>" LE "<=" GE ">=" EQ "==" NE "!=" ANDAND "&&" OROR "||"

/* Constant expressions: C's precedence and associativity (PTX ISA "Operator Precedence"). */
%right '?' ':'
%left OROR
%left ANDAND
%left '|'
%left '^'
%left '&'
%left EQ NE
%left '<' '>' LE GE
%left SHL SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%type <sval> sint
%type <cval> cexpr
%type <node> operand operand_top addr_base name_node
%type <list> operands operands_opt elems names

%%

module
    : %empty
    | module mitem { CHECK_ABORT(); }
    ;

mitem
    : D_VERSION DECFLOAT                  { ptx_b_version(B, $2, L(@2)); }
    | D_TARGET target_list
    | D_ADDRESS_SIZE INTLIT               { ptx_b_address_size(B, $2.v, L(@2)); }
    | D_PRAGMA strings ';'
    | D_ALIAS WORD ',' WORD ';'           { ptx_b_alias(B, $2, $4, L(@2)); }
    | prefix vdecl ';'
    | prefix function
    ;

target_list
    : WORD                                { ptx_b_target(B, $1, L(@1)); }
    | target_list ',' WORD                { ptx_b_target(B, $3, L(@3)); }
    ;

strings
    : STRING
    | strings ',' STRING
    ;

prefix
    : %empty
    | prefix LINKAGE                      { ptx_b_decl_linkage(B, $2); }
    ;

/* ---------------------------------------------------------------- declarations */

vdecl
    : SPACE                               { ptx_b_decl_begin(B, $1, L(@1)); }
      vattrs vitems
    ;

vattrs
    : %empty
    | vattrs vattr
    ;

vattr
    : D_ALIGN INTLIT                      { ptx_b_decl_align(B, $2.v, L(@2)); }
    | TYPE                                { ptx_b_decl_type(B, $1, L(@1)); }
    | VECSPEC                             { ptx_b_decl_vec(B, $1); }
    | D_PTR                               { ptx_b_decl_ptr(B); }
    | SPACE                               { ptx_b_decl_space_attr(B, $1); }
    | D_ATTRIBUTE '(' attrs ')'
    ;

attrs
    : attr
    | attrs ',' attr
    ;

attr
    : D_ATTRNAME                          { ptx_b_decl_attribute(B, $1, false, L(@1)); }
    | D_ATTRNAME '(' intlist ')'          { ptx_b_decl_attribute(B, $1, true, L(@1)); }
    ;

fattr_list
    : fattr
    | fattr_list ',' fattr
    ;

fattr
    : D_ATTRNAME                          { ptx_b_func_attribute(B, $1, false, L(@1)); }
    | D_ATTRNAME '(' intlist ')'          { ptx_b_func_attribute(B, $1, true, L(@1)); }
    ;

vitems
    : vitem
    | vitems ',' vitem
    ;

vitem
    : vname vsuffix vinit                 { ptx_b_decl_end_item(B); }
    ;

vname
    : WORD                                { ptx_b_decl_name(B, $1, L(@1)); }
    | REGNAME                             { ptx_b_decl_name(B, $1, L(@1)); }
    | SINK                                { ptx_str s = {"_", 1}; ptx_b_decl_name(B, s, L(@1)); }
    ;

vsuffix
    : %empty
    | '<' INTLIT '>'                      { ptx_b_decl_range(B, $2.v, L(@2)); }
    | dims
    ;

dims
    : dim
    | dims dim
    ;

dim
    : '[' cexpr ']'                       { ptx_b_decl_dim(B, true, $2, L(@2)); }
    | '[' ']'                             { ptx_cval none = {0}; ptx_b_decl_dim(B, false, none, L(@1)); }
    ;

vinit
    : %empty
    | '=' init
    ;

init
    : '{'                                 { ptx_b_init_open(B); }
      init_list '}'                       { ptx_b_init_close(B); }
    | init_scalar
    ;

init_list
    : init
    | init_list ',' init
    ;

init_scalar
    : cexpr                               { ptx_b_init_value(B, $1, L(@1)); }
    | WORD                                { ptx_cval z = {PTX_CV_S64, false, 0}; ptx_b_init_addr(B, $1, false, z, L(@1)); }
    | WORD '+' cexpr                      { ptx_b_init_addr(B, $1, false, $3, L(@1)); }
    | WORD '(' WORD ')'                   { ptx_cval z = {PTX_CV_S64, false, 0}; ptx_b_init_generic(B, $1, $3, z, L(@1)); }
    | WORD '(' WORD ')' '+' cexpr         { ptx_b_init_generic(B, $1, $3, $6, L(@1)); }
    | WORD '=' WORD                       { ptx_cval z = {0}; ptx_b_init_field(B, $1, $3, z, L(@1)); }
    | WORD '=' cexpr                      { ptx_str none = {"", 0}; ptx_b_init_field(B, $1, none, $3, L(@1)); }
    ;

/* A constant expression (ptx_cexpr.c evaluates it as it is read). */
cexpr
    : INTLIT                              { $$ = ptx_cval_int($1); }
    | DECFLOAT                            { $$ = ptx_cval_f64(ptx_b_decfloat($1, false), false); }
    | F64LIT                              { $$ = ptx_cval_f64($1, true); }
    | F32LIT                              { $$ = ptx_cval_f32_bits((uint32_t)$1); }
    | '(' cexpr ')'                       { $$ = $2; }
    | '(' TYPE ')' cexpr %prec UNARY      { $$ = ptx_cexpr_cast(B, $2, $4, L(@1)); }
    | '+' cexpr %prec UNARY               { $$ = ptx_cexpr_unary(B, '+', $2, L(@1)); }
    | '-' cexpr %prec UNARY               { $$ = ptx_cexpr_unary(B, '-', $2, L(@1)); }
    | '!' cexpr %prec UNARY               { $$ = ptx_cexpr_unary(B, '!', $2, L(@1)); }
    | '~' cexpr %prec UNARY               { $$ = ptx_cexpr_unary(B, '~', $2, L(@1)); }
    | cexpr '*' cexpr                     { $$ = ptx_cexpr_binary(B, '*', $1, $3, L(@2)); }
    | cexpr '/' cexpr                     { $$ = ptx_cexpr_binary(B, '/', $1, $3, L(@2)); }
    | cexpr '%' cexpr                     { $$ = ptx_cexpr_binary(B, '%', $1, $3, L(@2)); }
    | cexpr '+' cexpr                     { $$ = ptx_cexpr_binary(B, '+', $1, $3, L(@2)); }
    | cexpr '-' cexpr                     { $$ = ptx_cexpr_binary(B, '-', $1, $3, L(@2)); }
    | cexpr SHL cexpr                     { $$ = ptx_cexpr_binary(B, PTX_CX_SHL, $1, $3, L(@2)); }
    | cexpr SHR cexpr                     { $$ = ptx_cexpr_binary(B, PTX_CX_SHR, $1, $3, L(@2)); }
    | cexpr '<' cexpr                     { $$ = ptx_cexpr_binary(B, '<', $1, $3, L(@2)); }
    | cexpr '>' cexpr                     { $$ = ptx_cexpr_binary(B, '>', $1, $3, L(@2)); }
    | cexpr LE cexpr                      { $$ = ptx_cexpr_binary(B, PTX_CX_LE, $1, $3, L(@2)); }
    | cexpr GE cexpr                      { $$ = ptx_cexpr_binary(B, PTX_CX_GE, $1, $3, L(@2)); }
    | cexpr EQ cexpr                      { $$ = ptx_cexpr_binary(B, PTX_CX_EQ, $1, $3, L(@2)); }
    | cexpr NE cexpr                      { $$ = ptx_cexpr_binary(B, PTX_CX_NE, $1, $3, L(@2)); }
    | cexpr '&' cexpr                     { $$ = ptx_cexpr_binary(B, '&', $1, $3, L(@2)); }
    | cexpr '^' cexpr                     { $$ = ptx_cexpr_binary(B, '^', $1, $3, L(@2)); }
    | cexpr '|' cexpr                     { $$ = ptx_cexpr_binary(B, '|', $1, $3, L(@2)); }
    | cexpr ANDAND cexpr                  { $$ = ptx_cexpr_binary(B, PTX_CX_ANDAND, $1, $3, L(@2)); }
    | cexpr OROR cexpr                    { $$ = ptx_cexpr_binary(B, PTX_CX_OROR, $1, $3, L(@2)); }
    | cexpr '?' cexpr ':' cexpr           { $$ = ptx_cexpr_select(B, $1, $3, $5, L(@2)); }
    ;

sint
    : INTLIT                              { $$ = (int64_t)$1.v; }
    | '-' INTLIT                          { $$ = (int64_t)(0 - $2.v); }
    ;

/* values of .maxntid-style lists accumulate in the builder */
intlist
    : INTLIT                              { ptx_b_ints_reset(B); ptx_b_ints_add(B, $1.v); }
    | intlist ',' INTLIT                  { ptx_b_ints_add(B, $3.v); }
    ;

/* ---------------------------------------------------------------- functions */

function
    : D_ENTRY                             { ptx_b_func_begin(B, true, L(@1)); }
      WORD                                { ptx_b_func_name(B, $3, L(@3)); }
      fparams perfs fbody
    | D_FUNC                              { ptx_b_func_begin(B, false, L(@1)); }
      fattrs frets WORD                   { ptx_b_func_name(B, $5, L(@5)); }
      fparams perfs fbody
    ;

fattrs
    : %empty
    | fattrs D_ATTRIBUTE '(' fattr_list ')'
    ;

frets
    : %empty
    | '('                                 { ptx_b_func_rets_begin(B); }
      plist ')'
    ;

fparams
    : %empty
    | '('                                 { ptx_b_func_params_begin(B); }
      plist ')'
    ;

plist
    : %empty
    | pdecls
    ;

pdecls
    : pdecl
    | pdecls ',' pdecl
    ;

pdecl
    : SPACE                               { ptx_b_decl_begin(B, $1, L(@1)); }
      vattrs vitem
    ;

perfs
    : %empty
    | perfs perf
    ;

perf
    : D_PERF                              { ptx_b_func_perf(B, $1, NULL, 0, L(@1)); }
    | D_PERF intlist                      { ptx_b_func_perf_list(B, $1, L(@1)); }
    | D_PRAGMA strings ';'
    ;

fbody
    : '{'                                 { ptx_b_func_body_begin(B); }
      stmts '}'                           { ptx_b_func_end(B, true); }
    | ';'                                 { ptx_b_func_end(B, false); }
    ;

stmts
    : %empty
    | stmts stmt                          { CHECK_ABORT(); }
    ;

stmt
    : WORD ':'                            { ptx_b_label(B, $1, L(@1)); }
    | WORD ':' D_BRANCHTARGETS names ';'  { ptx_b_branchtargets(B, $1, $4, L(@1)); }
    | WORD ':' D_CALLTARGETS names ';'    { ptx_b_calltargets(B, $1, $4, L(@1)); }
    | WORD ':' D_CALLPROTOTYPE            { ptx_b_callprototype_begin(B, $1, L(@1)); }
      frets SINK fparams ';'              { ptx_b_callprototype_end(B); }
    | instr ';'
    | vdecl ';'
    | '{'                                 { ptx_b_scope_push(B); }
      stmts '}'                           { ptx_b_scope_pop(B); }
    | D_PRAGMA STRING ';'                 { ptx_b_pragma(B, $2, L(@2)); }
    ;

names
    : name_node                           { $$ = ptx_b_list_one(B, $1); }
    | names ',' name_node                 { $$ = ptx_b_list_add(B, $1, $3); }
    ;

instr
    : WORD operands_opt                   { ptx_b_instr(B, $1, -1, false, $2, L(@1)); }
    | '@' name_node WORD operands_opt     { ptx_b_instr(B, $3, $2, false, $4, L(@3)); }
    | '@' '!' name_node WORD operands_opt { ptx_b_instr(B, $4, $3, true, $5, L(@4)); }
    ;

operands_opt
    : %empty                              { $$.first = $$.last = -1; $$.n = 0; }
    | operands
    ;

operands
    : operand_top                         { $$ = ptx_b_list_one(B, $1); }
    | operands ',' operand_top            { $$ = ptx_b_list_add(B, $1, $3); }
    ;

operand_top
    : operand
    | operand '|' operand                 { $$ = ptx_b_node_pipe(B, $1, $3); }
    ;

name_node
    : WORD                                { $$ = ptx_b_node_name(B, $1, false, L(@1)); }
    | REGNAME                             { $$ = ptx_b_node_name(B, $1, false, L(@1)); }
    ;

operand
    : name_node
    | '!' name_node                       { $$ = $2; ptx_b_node_negate(B, $2); }
    | '-' name_node                       { $$ = $2; ptx_b_node_negate(B, $2); }
    | sint                                { $$ = ptx_b_node_imm(B, PTX_N_IMM, $1, L(@1)); }
    | F32LIT                              { $$ = ptx_b_node_imm(B, PTX_N_F32, (int64_t)$1, L(@1)); }
    | F64LIT                              { $$ = ptx_b_node_imm(B, PTX_N_F64, (int64_t)$1, L(@1)); }
    | DECFLOAT                            { $$ = ptx_b_node_imm(B, PTX_N_F64, (int64_t)ptx_b_decfloat($1, false), L(@1)); }
    | '-' DECFLOAT                        { $$ = ptx_b_node_imm(B, PTX_N_F64, (int64_t)ptx_b_decfloat($2, true), L(@1)); }
    | '-' F32LIT                          { $$ = ptx_b_node_imm(B, PTX_N_F32, (int64_t)($2 ^ 0x80000000u), L(@1)); }
    | '-' F64LIT                          { $$ = ptx_b_node_imm(B, PTX_N_F64, (int64_t)($2 ^ 0x8000000000000000u), L(@1)); }
    | SINK                                { $$ = ptx_b_node_imm(B, PTX_N_SINK, 0, L(@1)); }
    | name_node '+' sint                  { $$ = ptx_b_node_addr_value(B, $1, $3, L(@1)); }
    | name_node '-' INTLIT                { $$ = ptx_b_node_addr_value(B, $1, (int64_t)(0 - $3.v), L(@1)); }
    | '[' addr_base ']'                   { $$ = ptx_b_node_addr(B, $2, 0, L(@1)); }
    | '[' addr_base ']' D_ATTRNAME        { $$ = ptx_b_node_addr(B, $2, 0, L(@1));
                                            ptx_b_node_addr_qualifier(B, $$, $4, L(@4)); }
    | '[' addr_base '+' sint ']' D_ATTRNAME { $$ = ptx_b_node_addr(B, $2, $4, L(@1));
                                            ptx_b_node_addr_qualifier(B, $$, $6, L(@6)); }
    | '[' addr_base '+' sint ']'          { $$ = ptx_b_node_addr(B, $2, $4, L(@1)); }
    | '[' addr_base '-' INTLIT ']'        { $$ = ptx_b_node_addr(B, $2, (int64_t)(0 - $4.v), L(@1)); }
    | '[' sint ']'                        { $$ = ptx_b_node_addr(B, -1, $2, L(@1)); }
    | '[' addr_base ',' elems ']'         { $$ = ptx_b_node_group(B, PTX_N_BLIST, ptx_b_list_prepend(B, $4, $2), L(@1)); }
    | '{' elems '}'                       { $$ = ptx_b_node_group(B, PTX_N_VEC, $2, L(@1)); }
    | '(' ')'                             { ptx_node_list e = {-1, -1, 0}; $$ = ptx_b_node_group(B, PTX_N_LIST, e, L(@1)); }
    | '(' elems ')'                       { $$ = ptx_b_node_group(B, PTX_N_LIST, $2, L(@1)); }
    ;

addr_base
    : name_node
    ;

elems
    : operand                             { $$ = ptx_b_list_one(B, $1); }
    | elems ',' operand                   { $$ = ptx_b_list_add(B, $1, $3); }
    ;
