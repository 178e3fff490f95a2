//===- tx_stdcxx.h - libstdc++'s out-of-line node code over TM --*- C++ -*-===//
//
// The functions that libstdc++'s containers call in the shared library
// rather than instantiate in the user's unit, redone so that every read and
// write of a node goes through an accessor A of the linked algorithm:
//
//   template <class T> static T load(const T *);     T of 4 or 8 bytes
//   template <class T> static void store(T *, T);
//   static void read_bytes(void *priv, const void *tm, size_t n);
//   static constexpr bool kPlainReads;              reads may be plain loads
//
// Red-black trees (std::map, std::set, multimap, multiset): successor,
// predecessor, insertion with its fix-up and erasure with its fix-up, on
// libstdc++'s node layout (_Rb_tree_node_base: color, parent, left, right;
// red = 0, black = 1) and its header conventions (header.parent = root,
// header.left = leftmost, header.right = rightmost; an empty tree's header
// points to itself on both sides; the header is red, the root black).
// Written from the red-black tree's definition: a tree changed here is a
// valid tree for libstdc++'s own functions and the other way round.
//
// Doubly linked lists (std::list): hook, unhook, transfer (splice),
// reverse and swap of _List_node_base {next, prev}, circular around the
// list's header.
//
// Hash tables (std::unordered_*): the prime rehash policy's two members and
// _Hash_bytes/_Fnv_hash_bytes compute from a private copy of their input
// (read through the barriers) with libstdc++'s own code; the policy's one
// mutable field (the next resize threshold) is written back through the
// barriers when it changed.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_TX_STDCXX_H
#define PTM_RUNTIME_TX_STDCXX_H

#include "runtime/abi/scratch.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map> // std::__detail::_Prime_rehash_policy, _Hash_bytes
#include <utility>

namespace ptm {

// libstdc++'s _Rb_tree_node_base and _List_node_base, field for field.
struct RbNode {
  int color; // _Rb_tree_color: _S_red = 0, _S_black = 1
  RbNode *parent;
  RbNode *left;
  RbNode *right;
};
struct ListNode {
  ListNode *next;
  ListNode *prev;
};
static_assert(sizeof(RbNode) == 32 && offsetof(RbNode, parent) == 8 &&
                  offsetof(RbNode, left) == 16 && offsetof(RbNode, right) == 24,
              "libstdc++'s _Rb_tree_node_base layout");
static_assert(sizeof(ListNode) == 16, "libstdc++'s _List_node_base layout");

// The result of _Prime_rehash_policy::_M_need_rehash: returned in two
// registers like std::pair<bool, std::size_t>.
struct RehashNeed {
  bool first;
  size_t second;
};

template <class A> struct TxStdcxx {
  using Policy = std::__detail::_Prime_rehash_policy;
  static constexpr int kRed = 0, kBlack = 1;

  // ---- Red-black trees ----------------------------------------------------

  static RbNode *parent(RbNode *n) { return A::load(&n->parent); }
  static RbNode *left(RbNode *n) { return A::load(&n->left); }
  static RbNode *right(RbNode *n) { return A::load(&n->right); }
  static int color(RbNode *n) { return A::load(&n->color); }
  static bool is_red(RbNode *n) { return n && color(n) == kRed; }
  static void set_parent(RbNode *n, RbNode *v) { A::store(&n->parent, v); }
  static void set_left(RbNode *n, RbNode *v) { A::store(&n->left, v); }
  static void set_right(RbNode *n, RbNode *v) { A::store(&n->right, v); }
  static void set_color(RbNode *n, int c) { A::store(&n->color, c); }

  static RbNode *minimum(RbNode *n) {
    for (RbNode *l; (l = left(n));)
      n = l;
    return n;
  }
  static RbNode *maximum(RbNode *n) {
    for (RbNode *r; (r = right(n));)
      n = r;
    return n;
  }

  // In-order successor; the rightmost node's is the header.
  static RbNode *rb_increment(RbNode *x) {
    if (RbNode *r = right(x))
      return minimum(r);
    RbNode *up = parent(x);
    while (x == right(up)) { // climb while x is a right child
      x = up;
      up = parent(up);
    }
    // x is a left child of up, or the climb from the rightmost node passed
    // the root into the header (x = header, up = root): then the answer is
    // the header, which is exactly when x's right child is up.
    return right(x) == up ? x : up;
  }

  // In-order predecessor; the header's is the rightmost node.
  static RbNode *rb_decrement(RbNode *x) {
    // The header is the only red node that is its parent's parent.
    if (color(x) == kRed && parent(parent(x)) == x)
      return right(x);
    if (RbNode *l = left(x))
      return maximum(l);
    RbNode *up = parent(x);
    while (x == left(up)) {
      x = up;
      up = parent(up);
    }
    return up;
  }

  // Puts v where u was under u's parent (the header's root link for the
  // root).
  static void replace_child(RbNode *u, RbNode *v, RbNode *hdr) {
    RbNode *up = parent(u);
    if (u == parent(hdr))
      set_parent(hdr, v);
    else if (u == left(up))
      set_left(up, v);
    else
      set_right(up, v);
    if (v)
      set_parent(v, up);
  }

  // x's right child takes x's place; x becomes its left child.
  static void rotate_left(RbNode *x, RbNode *hdr) {
    RbNode *y = right(x);
    RbNode *inner = left(y);
    set_right(x, inner);
    if (inner)
      set_parent(inner, x);
    replace_child(x, y, hdr);
    set_left(y, x);
    set_parent(x, y);
  }

  // x's left child takes x's place; x becomes its right child.
  static void rotate_right(RbNode *x, RbNode *hdr) {
    RbNode *y = left(x);
    RbNode *inner = right(y);
    set_left(x, inner);
    if (inner)
      set_parent(inner, x);
    replace_child(x, y, hdr);
    set_right(y, x);
    set_parent(x, y);
  }

  // Links the new node x as the left (LEFT_SIDE) or right child of p, keeps
  // the header's leftmost and rightmost links, and restores the red-black
  // properties.
  static void rb_insert_and_rebalance(bool left_side, RbNode *x, RbNode *p,
                                      RbNode *hdr) {
    set_parent(x, p);
    set_left(x, nullptr);
    set_right(x, nullptr);
    set_color(x, kRed);
    if (left_side) {
      set_left(p, x); // for p == header: the leftmost link
      if (p == hdr) { // the first node
        set_parent(hdr, x);
        set_right(hdr, x);
      } else if (p == left(hdr)) {
        set_left(hdr, x);
      }
    } else {
      set_right(p, x);
      if (p == right(hdr))
        set_right(hdr, x);
    }
    // A red x under a red parent: the parent is not the root (black), so
    // the grandparent g is a real node.
    while (x != parent(hdr)) {
      RbNode *px = parent(x);
      if (color(px) != kRed)
        break;
      RbNode *g = parent(px);
      bool px_left = px == left(g);
      RbNode *uncle = px_left ? right(g) : left(g);
      if (is_red(uncle)) { // recolour and continue two levels up
        set_color(px, kBlack);
        set_color(uncle, kBlack);
        set_color(g, kRed);
        x = g;
        continue;
      }
      if (px_left) {
        if (x == right(px)) { // inner grandchild: make it outer
          rotate_left(px, hdr);
          px = x;
        }
        set_color(px, kBlack);
        set_color(g, kRed);
        rotate_right(g, hdr);
      } else {
        if (x == left(px)) {
          rotate_right(px, hdr);
          px = x;
        }
        set_color(px, kBlack);
        set_color(g, kRed);
        rotate_left(g, hdr);
      }
      break;
    }
    set_color(parent(hdr), kBlack);
  }

  // Unlinks z from the tree (keeping the header's links), restores the
  // red-black properties, and returns z for the caller to destroy. A node
  // with two children is replaced by its successor node (relinked, not
  // copied: iterators to other elements stay valid).
  static RbNode *rb_rebalance_for_erase(RbNode *z, RbNode *hdr) {
    RbNode *zl = left(z), *zr = right(z);
    RbNode *x;  // the node that moves into the removed position (may be null)
    RbNode *xp; // x's parent after the removal
    bool removed_black;
    if (!zl || !zr) {
      x = zl ? zl : zr;
      xp = parent(z);
      removed_black = color(z) == kBlack;
      replace_child(z, x, hdr);
      if (left(hdr) == z) // z was the leftmost (it has no left child)
        set_left(hdr, x ? minimum(x) : xp);
      if (right(hdr) == z) // z was the rightmost
        set_right(hdr, x ? maximum(x) : xp);
    } else {
      RbNode *y = minimum(zr); // the successor: no left child
      x = right(y);
      removed_black = color(y) == kBlack;
      if (y == zr) {
        xp = y;
      } else {
        xp = parent(y);
        set_left(xp, x); // y was xp's left child
        if (x)
          set_parent(x, xp);
        set_right(y, zr);
        set_parent(zr, y);
      }
      replace_child(z, y, hdr);
      set_left(y, zl);
      set_parent(zl, y);
      set_color(y, color(z));
      // z had two children, so it was neither leftmost nor rightmost.
    }
    if (removed_black)
      erase_fixup(x, xp, hdr);
    return z;
  }

  // x (possibly null) carries an extra black; push it up or resolve it.
  static void erase_fixup(RbNode *x, RbNode *xp, RbNode *hdr) {
    while (x != parent(hdr) && !is_red(x)) {
      // A null x is its parent's only null child here: the sibling's
      // subtree holds at least one black node.
      bool x_left = x == left(xp);
      RbNode *w = x_left ? right(xp) : left(xp);
      if (color(w) == kRed) { // make the sibling black
        set_color(w, kBlack);
        set_color(xp, kRed);
        if (x_left)
          rotate_left(xp, hdr);
        else
          rotate_right(xp, hdr);
        w = x_left ? right(xp) : left(xp);
      }
      RbNode *near = x_left ? left(w) : right(w);
      RbNode *far = x_left ? right(w) : left(w);
      if (!is_red(near) && !is_red(far)) { // both black: move the extra up
        set_color(w, kRed);
        x = xp;
        xp = parent(xp);
        continue;
      }
      if (!is_red(far)) { // make the far nephew red
        set_color(near, kBlack);
        set_color(w, kRed);
        if (x_left)
          rotate_right(w, hdr);
        else
          rotate_left(w, hdr);
        w = x_left ? right(xp) : left(xp);
        far = x_left ? right(w) : left(w);
      }
      set_color(w, color(xp));
      set_color(xp, kBlack);
      set_color(far, kBlack);
      if (x_left)
        rotate_left(xp, hdr);
      else
        rotate_right(xp, hdr);
      x = parent(hdr);
      break;
    }
    if (x)
      set_color(x, kBlack);
  }

  // Black nodes from n up to root, both included (libstdc++'s tree check).
  static unsigned rb_black_count(RbNode *n, RbNode *root) {
    if (!n)
      return 0;
    unsigned count = 0;
    for (;; n = parent(n)) {
      count += color(n) == kBlack;
      if (n == root)
        return count;
    }
  }

  // ---- Lists ---------------------------------------------------------------

  static ListNode *next(ListNode *n) { return A::load(&n->next); }
  static ListNode *prev(ListNode *n) { return A::load(&n->prev); }
  static void set_next(ListNode *n, ListNode *v) { A::store(&n->next, v); }
  static void set_prev(ListNode *n, ListNode *v) { A::store(&n->prev, v); }

  // Inserts n before pos.
  static void list_hook(ListNode *n, ListNode *pos) {
    ListNode *before = prev(pos);
    set_next(n, pos);
    set_prev(n, before);
    set_next(before, n);
    set_prev(pos, n);
  }

  static void list_unhook(ListNode *n) {
    ListNode *after = next(n), *before = prev(n);
    set_next(before, after);
    set_prev(after, before);
  }

  // Moves [first, last) (of this or another list) before pos.
  static void list_transfer(ListNode *pos, ListNode *first, ListNode *last) {
    if (pos == last || first == last)
      return;
    ListNode *last_in = prev(last), *before_first = prev(first);
    ListNode *before_pos = prev(pos);
    set_next(before_first, last); // close the gap in the source
    set_prev(last, before_first);
    set_next(before_pos, first); // open one before pos
    set_prev(first, before_pos);
    set_next(last_in, pos);
    set_prev(pos, last_in);
  }

  // Reverses the circular list around hdr (every node's links swap).
  static void list_reverse(ListNode *hdr) {
    ListNode *n = hdr;
    do {
      ListNode *after = next(n), *before = prev(n);
      set_next(n, before);
      set_prev(n, after);
      n = after;
    } while (n != hdr);
  }

  // Exchanges the nodes of the lists around headers a and b.
  static void list_swap(ListNode *a, ListNode *b) {
    ListNode *an = next(a), *ap = prev(a), *bn = next(b), *bp = prev(b);
    adopt(b, an == a ? nullptr : an, ap);
    adopt(a, bn == b ? nullptr : bn, bp);
  }
  // Header h takes the chain first..last (none when first is null).
  static void adopt(ListNode *h, ListNode *first, ListNode *last) {
    if (!first) {
      set_next(h, h);
      set_prev(h, h);
      return;
    }
    set_next(h, first);
    set_prev(h, last);
    set_prev(first, h);
    set_next(last, h);
  }

  // ---- Hash tables ---------------------------------------------------------

  static Policy private_copy(const Policy *p) {
    Policy copy;
    A::read_bytes(&copy, p, sizeof copy);
    return copy;
  }
  static void write_back(Policy *p, const Policy &before, const Policy &now) {
    if (now._M_next_resize != before._M_next_resize)
      A::store(&p->_M_next_resize, now._M_next_resize);
  }

  static size_t next_bkt(const Policy *p, size_t n) {
    const Policy before = private_copy(p);
    Policy now = before;
    size_t r = now._M_next_bkt(n);
    write_back(const_cast<Policy *>(p), before, now);
    return r;
  }

  static RehashNeed need_rehash(const Policy *p, size_t bkt, size_t elt,
                                size_t ins) {
    const Policy before = private_copy(p);
    Policy now = before;
    std::pair<bool, size_t> r = now._M_need_rehash(bkt, elt, ins);
    write_back(const_cast<Policy *>(p), before, now);
    return {r.first, r.second};
  }

  template <size_t (*Hash)(const void *, size_t, size_t)>
  static size_t hash_bytes(const void *p, size_t n, size_t seed) {
    if constexpr (A::kPlainReads)
      return Hash(p, n, seed);
    Scratch copy(n);
    A::read_bytes(copy.data(), p, n);
    return Hash(copy.data(), n, seed);
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_TX_STDCXX_H
