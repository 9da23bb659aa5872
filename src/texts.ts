/**
 * Every user-visible text that the product spec quotes, word for word (spellings such as
 * "Catagory", "Foound" and "SignUP" are requirements). UI and tests import from here so a text
 * is written exactly once.
 */
export const texts = {
  brand: {
    title: 'MAR Online.Store UK',
    footer: 'All Right Reserved © MAR Online Store 2023',
    followUs: 'Follow us',
  },
  nav: {
    home: 'Home',
    login: 'Login',
    admin: 'Admin',
    contact: 'Contact Us',
    logout: 'Logout',
    about: 'About',
    policy: 'Privacy Policy',
  },
  home: {
    all: 'All',
    noProducts: 'No Products',
    buyNow: 'Buy Now',
  },
  notFound: {
    title: 'Oops! Page Not Found',
    goBack: 'Go Back',
  },
  contact: {
    heading: 'Contact Us',
    fillAll: 'Please fill all fields!',
    sent: 'Email Sent Successfully',
    failed: 'Something went wrong! Try again.',
  },
  login: {
    heading: 'Admin Login',
    verifyFirst: 'Verify your Email first',
    success: 'Login Successful',
    failed: 'Something went wrong',
  },
  logout: {
    success: 'Logout Successfully',
  },
  admin: {
    heading: 'Admin',
    tabs: { products: 'Products', signup: 'SignUP', categories: 'Catagories' },
  },
  signup: {
    verificationSent: 'Verification Email Sent',
    success: 'SignUp Successful',
    emailTaken: 'Email already registered',
  },
  validation: {
    titleRequired: 'Title is Required',
    categoryRequired: 'Catagory is Required',
    priceRequired: 'Price is Required',
    commentRequired: 'Comment is Required',
    imageRequired: 'Image link is Required',
    linkRequired: 'Link is required',
    titleInUse: 'Title Already in Use',
    enterTitleAndGetProduct: 'Please Enter Title and Click on Get Product',
    clickGetProduct: 'Click on Get Product',
    clickGetCategory: 'Click on Get Catagory',
  },
  product: {
    added: 'Product Added',
    addFailed: 'Error in Adding New Product',
    loaded: 'Product Details Loaded',
    getFailed: 'Error Getting Product',
    notFound: 'Product Not Foound',
    updated: 'Product Updated Successfully',
    updateFailed: 'Error in Updating Product',
    deleted: 'Product Deleted Successfully',
    deleteFailed: 'Product not Deleted',
  },
  category: {
    added: 'Catagory Added',
    addFailed: 'Error in Adding New Catagory',
    found: 'Catagory Founded',
    getFailed: 'Error Getting Catagory',
    notFound: 'Catagory Not Foound',
    updated: 'Catagory Updated Successfully',
    updateFailed: 'Error in Updating Catagory',
    deleted: 'Catagory Deleted Successfully',
    deleteFailed: 'Catagory not Deleted',
  },
  unexpected: 'Something went Wrong',
} as const;

/** Store constants from the spec (section 9). */
export const constants = {
  bannerIntervalMs: 4000,
  bannerSlides: 3,
  toastSuccessMs: 2000,
  toastErrorMs: 4000,
  toastLimit: 20,
  minPasswordLength: 6,
  privacyAgeThreshold: 13,
} as const;
